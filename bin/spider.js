#!/usr/bin/env node
// `spider` on the PATH (npm link / npx): run the TypeScript CLI through tsx with the project's own Node.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const nodeBin = path.join(path.dirname(require.resolve('node/package.json')), 'bin', 'node');
// tsx as Node's loader (`node --import tsx`), not its CLI: the CLI is one more process between this
// one and the spider command, and it SIGKILLs its child when the child has not reported a signal it
// relayed within about 60 ms (a learn or an extraction holding the event loop): the stop then lost
// the messages in flight (their receive spent), the data folder's lock and the browser's cleanup.
const tsx = pathToFileURL(require.resolve('tsx')).href;
const child = spawn(nodeBin, ['--import', tsx, path.join(root, 'lib', 'cli', 'main.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
// A signal sent to this process alone (timeout, systemd, docker stop) reaches the CLI, which stops
// cleanly; this process exits when it does, with its code.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 1)));
