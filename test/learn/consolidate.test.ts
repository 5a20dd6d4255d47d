import { describe, expect, it } from 'vitest';
import {
  consolidatePaths,
  formatSelector,
  intersectPaths,
  parseSelector,
  pathMatches,
  type SelectorStep,
} from '../../lib/learn/consolidate';
import type { PathStep } from '../../lib/types/feature-document';
import { path } from './factory';

describe('intersectPaths / consolidatePaths', () => {
  it('intersects ids and classes step by step', () => {
    const merged = intersectPaths([path('div#main.a.b > p'), path('div#main.a > p')]);
    expect(formatSelector(merged)).toBe('body > div#main.a > p');
  });

  it('drops ids that differ and the paper example consolidates the same way', () => {
    const merged = intersectPaths([
      path('div#a-386.article > div.p1 > p.p1.paragraph'),
      path('div#a-2383.article > div.p9 > p.p9.paragraph'),
    ]);
    expect(formatSelector(merged)).toBe('body > div.article > div > p.paragraph');
  });

  it('never keeps generated-looking names, even when every path has them', () => {
    const merged = intersectPaths([path('div#post-12345.article.css-1dbjc4n > p'), path('div#post-12345.article.css-1dbjc4n > p')]);
    expect(formatSelector(merged)).toBe('body > div.article > p');
  });

  it('groups by length and tag sequence', () => {
    const selectors = consolidatePaths([
      path('div.a > p'),
      path('div.a.x > p'),
      path('div.a > blockquote > p'),
      path('section.a > p'),
    ]).map(formatSelector);
    expect(selectors).toEqual(['body > div.a > p', 'body > div.a > blockquote > p', 'body > section.a > p']);
  });

  it('refuses paths of different tag sequences', () => {
    expect(() => intersectPaths([path('div > p'), path('div > h2')])).toThrow();
  });
});

describe('parseSelector and pathMatches', () => {
  const steps: SelectorStep[] = [
    { tag: 'div', id: 'main', classes: ['wrap', '1col', 'md:flex'] },
    { tag: 'article', classes: [], nthChild: 2 },
    { tag: 'p', classes: [] },
  ];

  it('parses what formatSelector writes', () => {
    const text = formatSelector(steps);
    expect(text).toBe('body > div#main.wrap.\\31 col.md\\:flex > article:nth-child(2) > p');
    expect(parseSelector(text)).toEqual(steps);
  });

  it('rejects other selector forms', () => {
    expect(parseSelector('div > p')).toBeNull();
    expect(parseSelector('body p')).toBeNull();
    expect(parseSelector('body > p, body > div')).toBeNull();
    expect(parseSelector('body > p[data-x]')).toBeNull();
  });

  it('matches a path as the CSS selector would match the element', () => {
    // the factory's path() cannot spell md:flex, so build the first step by hand
    const withFirst = (classes: string[], id: string, rest: string): PathStep[] => [
      { tag: 'div', id, classes, index: 1 },
      ...path(rest),
    ];
    const all = ['wrap', '1col', 'md:flex', 'extra'];
    expect(pathMatches(steps, withFirst(all, 'main', 'article.post:2 > p:5'))).toBe(true);
    expect(pathMatches(steps, withFirst(['wrap', '1col'], 'main', 'article:2 > p:5'))).toBe(false); // class missing
    expect(pathMatches(steps, withFirst(all, 'other', 'article:2 > p:5'))).toBe(false); // id
    expect(pathMatches(steps, withFirst(all, 'main', 'article:3 > p:5'))).toBe(false); // position
    expect(pathMatches(steps, withFirst(all, 'main', 'article:2 > p:5 > span'))).toBe(false); // depth
    expect(pathMatches(steps, withFirst(all, 'main', 'section:2 > p:5'))).toBe(false); // tag
  });
});
