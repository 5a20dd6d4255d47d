#!/usr/bin/env node
// `spider` on the PATH (npm link / npx): run the TypeScript CLI through tsx with the project's own Node.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const nodeBin = path.join(path.dirname(require.resolve('node/package.json')), 'bin', 'node');
const tsx = path.join(path.dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');
const result = spawnSync(nodeBin, [tsx, path.join(root, 'lib', 'cli', 'main.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
