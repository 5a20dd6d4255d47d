/** `spider` as a user runs it, for tests: a real process on a data folder, its output and exit code. */
import { execFile } from 'node:child_process';

export interface SpiderResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

export function runSpider(dataDir: string, args: readonly string[], stdin?: string, env: NodeJS.ProcessEnv = {}): Promise<SpiderResult> {
  return new Promise((resolve) => {
    const child = execFile('npx', ['tsx', 'lib/cli/main.ts', '--data-dir', dataDir, ...args], {
      env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '', ...env },
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    }, (error, stdout, stderr) => resolve({ stdout, stderr, code: error ? ((error as { code?: number }).code ?? 1) : 0 }));
    child.stdin?.end(stdin ?? '');
  });
}
