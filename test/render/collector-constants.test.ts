/**
 * The in-page collector is serialized into the page (Function.prototype.toString), so it cannot
 * import: it carries copies of shared constants. These tests pin each copy to its one definition.
 */
import { describe, expect, it } from 'vitest';
import { COLLECTOR_BLOCK_TAGS, COLLECTOR_SKIP_TAGS } from '../../lib/html/content';
import { ARTICLE_TYPE, COLLECTED_JSONLD_TYPE } from '../../lib/html/schema-types';
import { collectPage } from '../../lib/render/collector';

const source = collectPage.toString();

/** The strings of `const NAME = new Set([...])` in the collector's source. */
function setLiteral(name: string): string[] {
  const m = new RegExp(`const ${name} = new Set\\(\\[([^\\]]*)\\]\\)`).exec(source);
  if (!m) throw new Error(`no Set literal ${name} in collectPage`);
  return [...m[1].matchAll(/["'`]([^"'`]+)["'`]/g)].map((s) => s[1]);
}

/** The regular expression of `const NAME = /.../flags;` in the collector's source. */
function regexLiteral(name: string): RegExp {
  const m = new RegExp(`const ${name} = /((?:\\\\/|[^/])+)/([a-z]*);`).exec(source);
  if (!m) throw new Error(`no regex literal ${name} in collectPage`);
  return new RegExp(m[1], m[2]);
}

describe("the collector's copies", () => {
  it('JSON-LD node types: the shared COLLECTED_JSONLD_TYPE, article types and WebPage', () => {
    const copy = regexLiteral('JSONLD_TYPE');
    expect({ source: copy.source, flags: copy.flags }).toEqual({ source: COLLECTED_JSONLD_TYPE.source, flags: COLLECTED_JSONLD_TYPE.flags });
    for (const t of ['NewsArticle', 'https://schema.org/BlogPosting', 'Report', 'WebPage']) expect(copy.test(t), t).toBe(true);
    expect(copy.test('Organization')).toBe(false);
    expect(ARTICLE_TYPE.test('WebPage')).toBe(false);
  });

  it('skipped tags: the shared COLLECTOR_SKIP_TAGS', () => {
    expect(setLiteral('SKIP_TAGS').map((t) => t.toLowerCase()).sort()).toEqual([...COLLECTOR_SKIP_TAGS].sort());
  });

  it('block tags: the shared COLLECTOR_BLOCK_TAGS', () => {
    expect(setLiteral('BLOCK_TAGS').map((t) => t.toLowerCase()).sort()).toEqual([...COLLECTOR_BLOCK_TAGS].sort());
  });
});
