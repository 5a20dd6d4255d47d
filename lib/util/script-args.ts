/**
 * Arguments of the project's scripts and benchmarks (`npm run loadtest`, `bench/*.ts`, `scripts/*.ts`):
 * `node:util`'s parseArgs, with `--help` printing the script's usage (exit 0) and an unknown or
 * malformed option said with the usage (exit 2) instead of a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export function scriptArgs<const T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  const argv = config.args ?? process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(usage + '\n');
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
    process.exit(2);
  }
}
