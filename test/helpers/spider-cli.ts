/** `spider` as a user runs it, for tests: a real process on a data folder, its output and exit code. */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * The command that runs the CLI from its TypeScript source, as `npm start` and bin/spider.js do
 * (`node --import tsx lib/cli/main.ts`), with the Node running the tests (the project's own, under
 * `npm test`) and tsx's loader named by its path: npx took about 1.5 s of each run to find tsx.
 */
export const CLI_COMMAND = process.execPath;
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The arguments of CLI_COMMAND for `spider <args>`. */
export function spiderArgs(...args: readonly string[]): string[] {
  return ['--import', TSX_LOADER, 'lib/cli/main.ts', ...args];
}

export interface SpiderResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

export function runSpider(dataDir: string, args: readonly string[], stdin?: string, env: NodeJS.ProcessEnv = {}): Promise<SpiderResult> {
  return new Promise((resolve) => {
    const child = execFile(CLI_COMMAND, spiderArgs('--data-dir', dataDir, ...args), {
      env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '', ...env },
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    }, (error, stdout, stderr) => resolve({ stdout, stderr, code: error ? ((error as { code?: number }).code ?? 1) : 0 }));
    child.stdin?.end(stdin ?? '');
  });
}
