/** The configuration's variables: every SPIDER_ name the repository reads is known, and an unknown one is named with the nearest. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownVariables, unknownVariables } from '../../lib/config/config';
import { AWS_ENV } from '../../lib/aws/stack-outputs';

/** The misspellings and the made-up name the docs and tests use as their examples of unknown variables. */
const EXAMPLES = new Set(['SPIDER_HOST_INTERVAL', 'SPIDER_LEARN_MIN_PAGE', 'SPIDER_FOO']);
const ROOTS = ['lib', 'functions', 'cdk', 'bench', 'scripts', 'test', 'infra-tests', 'docs', 'bin', 'README.md', 'cdk.json', 'package.json'];

function filesUnder(entry: string): string[] {
  if (!statSync(entry, { throwIfNoEntry: false })) return [];
  if (statSync(entry).isFile()) return [entry];
  return readdirSync(entry, { withFileTypes: true }).flatMap((d) => (d.name === 'node_modules' ? [] : filesUnder(path.join(entry, d.name))));
}

describe('SPIDER_ variables', () => {
  it('knows every SPIDER_ name the repository holds: the configuration\'s, the deployed stack\'s, the tests\'', () => {
    const seen = new Map<string, string>();
    /** Names of the code's own (a constant SPIDER_ATTRIBUTE_PREFIX), no variables. */
    const declared = new Set<string>();
    for (const file of ROOTS.flatMap(filesUnder).filter((f) => /\.(ts|js|mjs|md|json|sh)$/.test(f))) {
      const text = readFileSync(file, 'utf8');
      for (const [name] of text.matchAll(/(?<![A-Z0-9_])SPIDER_[A-Z0-9_]*[A-Z0-9]/g)) if (!seen.has(name)) seen.set(name, file);
      for (const [, name] of text.matchAll(/\b(?:const|let|var|function|class|enum)\s+(SPIDER_[A-Z0-9_]+)/g)) declared.add(name);
    }
    const known = knownVariables();
    const unknown = [...seen].filter(([name]) => !known.includes(name) && !EXAMPLES.has(name) && !declared.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(unknown).toEqual([]);
    for (const name of Object.values(AWS_ENV)) expect(known).toContain(name);
    expect(seen.size).toBeGreaterThan(40);
  });

  it('names each unknown SPIDER_ variable of the environment with the known one nearest it, and nothing else', () => {
    const env = { SPIDER_HOST_INTERVAL: '5000', SPIDER_LEARN_MIN_PAGE: '3', SPIDER_BUCKET: '', SPIDER_HOST_INTERVAL_MS: '0', PATH: '/bin', NOT_SPIDER_X: '1' };
    expect(unknownVariables(env)).toEqual([
      { name: 'SPIDER_HOST_INTERVAL', nearest: 'SPIDER_HOST_INTERVAL_MS' },
      { name: 'SPIDER_LEARN_MIN_PAGE', nearest: 'SPIDER_LEARN_MIN_PAGES' },
    ]);
  });

  it('suggests no known variable for an unknown one that is like none of them', () => {
    expect(unknownVariables({ SPIDER_FOO: '1', SPIDER_HOST_INTERVAL: '5000' })).toEqual([{ name: 'SPIDER_FOO' }, { name: 'SPIDER_HOST_INTERVAL', nearest: 'SPIDER_HOST_INTERVAL_MS' }]);
  });
});
