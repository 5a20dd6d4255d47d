/** The configuration's variables: every SPIDER_ name the repository reads is known, and an unknown one is named with the nearest. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigSchema, envName, knownVariables, unknownVariables } from '../../lib/config/config';
import { AWS_ENV } from '../../lib/aws/stack-outputs';

/** The misspellings and the made-up name the docs and tests use as their examples of unknown variables. */
const EXAMPLES = new Set(['SPIDER_HOST_INTERVAL', 'SPIDER_LEARN_MIN_PAGE', 'SPIDER_FOO']);
const ROOTS = ['lib', 'functions', 'cdk', 'bench', 'scripts', 'test', 'infra-tests', 'docs', 'bin', 'README.md', 'cdk.json', 'package.json'];

function filesUnder(entry: string): string[] {
  if (!statSync(entry, { throwIfNoEntry: false })) return [];
  if (statSync(entry).isFile()) return [entry];
  return readdirSync(entry, { withFileTypes: true }).flatMap((d) => (d.name === 'node_modules' ? [] : filesUnder(path.join(entry, d.name))));
}

/**
 * The code's own SPIDER_ names, no variables, each with the one file that declares it and may use it:
 * named here one by one, so that a constant elsewhere with a variable's misspelt name is no excuse.
 */
const CODE_CONSTANTS = new Map([['SPIDER_ATTRIBUTE_PREFIX', 'lib/aws/sqs-records.ts']]);

/** Each SPIDER_ name of the files that is no known variable, no example and no code constant in its own file, with the first file it is in. */
function unknownNames(files: [file: string, text: string][], known: string[]): string[] {
  const seen = new Map<string, string>();
  for (const [file, text] of files) {
    for (const [name] of text.matchAll(/(?<![A-Z0-9_])SPIDER_[A-Z0-9_]*[A-Z0-9]/g)) {
      if (!known.includes(name) && !EXAMPLES.has(name) && CODE_CONSTANTS.get(name) !== file && !seen.has(name)) seen.set(name, file);
    }
  }
  return [...seen].map(([name, file]) => `${name} (${file})`);
}

describe('SPIDER_ variables', () => {
  it('knows every SPIDER_ name the repository holds: the configuration\'s, the deployed stack\'s, the tests\'', () => {
    // (this file is left out: it names misspellings and the code constants as its examples, and reads no variable)
    const files = ROOTS.flatMap(filesUnder)
      .filter((f) => /\.(ts|js|mjs|md|json|sh)$/.test(f) && f !== path.join('test', 'config', 'config.test.ts'))
      .map((f): [string, string] => [f, readFileSync(f, 'utf8')]);
    const known = knownVariables();
    expect(unknownNames(files, known)).toEqual([]);
    // each code constant is declared where it is said to be
    for (const [name, file] of CODE_CONSTANTS) expect(readFileSync(file, 'utf8')).toMatch(new RegExp(`\\b(?:const|let|var|function|class|enum)\\s+${name}\\b`));
    for (const name of Object.values(AWS_ENV)) expect(known).toContain(name);
    expect(new Set(files.flatMap(([, text]) => text.match(/(?<![A-Z0-9_])SPIDER_[A-Z0-9_]*[A-Z0-9]/g) ?? [])).size).toBeGreaterThan(40);
  });

  it('names a misspelt variable even when a constant of that name is declared, but for the code constants in their own file', () => {
    const known = knownVariables();
    const files: [string, string][] = [
      ['test/some.test.ts', "const SPIDER_LERN_PAGES = 'SPIDER_LERN_PAGES';"],
      ['lib/aws/sqs-records.ts', "const SPIDER_ATTRIBUTE_PREFIX = 'spider.';"],
      ['lib/other.ts', 'SPIDER_ATTRIBUTE_PREFIX'],
    ];
    expect(unknownNames(files, known)).toEqual(['SPIDER_LERN_PAGES (test/some.test.ts)', 'SPIDER_ATTRIBUTE_PREFIX (lib/other.ts)']);
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

describe('docs/configuration.md', () => {
  /** The table's rows by variable: its default and range cells, split where a row names two variables (`SPIDER_VIEWPORT_WIDTH` / `_HEIGHT`). */
  function documented(): Map<string, { default: string; range: string }> {
    const rows = new Map<string, { default: string; range: string }>();
    for (const line of readFileSync('docs/configuration.md', 'utf8').split('\n')) {
      const cells = line.split(' | ');
      if (!line.startsWith('| `SPIDER_') || cells.length < 4) continue;
      const names: string[] = [];
      for (const [, name] of cells[0].matchAll(/`(SPIDER_[A-Z0-9_]+|_[A-Z0-9_]+)`/g)) names.push(name.startsWith('_') ? names[0].replace(/_[A-Z0-9]+$/, name) : name);
      const defaults = cells[1].split(' / ');
      const ranges = cells[2].split(' / ');
      names.forEach((name, i) => rows.set(name, { default: defaults[i] ?? '', range: ranges[i] ?? '' }));
    }
    return rows;
  }

  it("gives every setting's variable with the schema's default and range", () => {
    const rows = documented();
    const keys = Object.keys(ConfigSchema.shape) as (keyof typeof ConfigSchema.shape)[];
    expect(rows.size).toBe(keys.length);
    for (const key of keys) {
      const row = rows.get(envName(key));
      expect(row, envName(key)).toBeDefined();
      const schema = ConfigSchema.shape[key];
      const fallback: unknown = schema.parse(undefined);
      const inner = schema.unwrap();
      if (typeof fallback === 'number' || typeof fallback === 'boolean') expect(row!.default, envName(key)).toBe(String(fallback));
      else if (Array.isArray(fallback)) expect(row!.default, envName(key)).toBe('none');
      else {
        // a string as written, or its start when the table shortens it with an ellipsis
        const shown = row!.default.replace(/`/g, '');
        const cut = /^(.+)…\)?$/.exec(shown);
        if (cut) expect(String(fallback).startsWith(cut[1]), envName(key)).toBe(true);
        else expect(shown, envName(key)).toBe(fallback);
      }
      // a number's range, or a list's items' (`1–65535 each`); none for words and switches
      const item = inner instanceof z.ZodPipe && inner.out instanceof z.ZodArray ? inner.out.element : undefined;
      if (inner instanceof z.ZodNumber) expect(row!.range, envName(key)).toBe(`${inner.minValue}–${inner.maxValue}`);
      else if (item instanceof z.ZodNumber) expect(row!.range, envName(key)).toBe(`${item.minValue}–${item.maxValue} each`);
      else expect(row!.range, envName(key)).toBe('—');
    }
  });
});
