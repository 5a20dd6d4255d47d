import { describe, expect, it } from 'vitest';
import { applyStep, clearRulesCache } from '../../lib/apply/apply-step';
import { ConfigSchema } from '../../lib/config/config';
import type { Logger, StepContext } from '../../lib/step/context';
import { keys } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import { putJson } from '../../lib/store/store';
import { DriftMarkerSchema, RULES_DOCUMENT_VERSION } from '../../lib/types/rules-document';
import { containment, DEFAULT_GUARD_OPTIONS, guardRulesOutput, linkShare, pageWords, suspectRulesOutput } from '../../lib/apply/guard';
import { READABILITY_MARK } from '../../lib/types/feature-document';
import { extractWithRules } from '../../lib/apply/extract-with-rules';
import { extractFallback } from '../../lib/apply/fallback';
import { parseHtml } from '../../lib/html/parse';

const sentence = (i: number) => `Sentence ${i} of the story tells the reader what happened in the town hall on the evening of the vote.`;
/** A page of another template than the rules were learned on: the byline element matches, the story is elsewhere. */
const videoPage = `<html><head><title>Council votes</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/video">Video</a></nav>
<div class="byline">By Jane Doe</div>
<div class="video-story">${Array.from({ length: 12 }, (_, i) => `<p>${sentence(i)}</p>`).join('')}</div>
<ul class="related">${Array.from({ length: 6 }, (_, i) => `<li><a href="/s${i}">Another story number ${i} about the council</a></li>`).join('')}</ul>
</body></html>`;
/** A page the rules fit: the story inside div.story, a short comment section beside it. */
const storyPage = `<html><head><title>Council votes</title></head><body>
<div class="byline">By Jane Doe</div>
<div class="story">${Array.from({ length: 12 }, (_, i) => `<p>${sentence(i)}</p>`).join('')}</div>
<div class="comments"><p>Great piece, thanks for the reporting on this vote.</p></div>
</body></html>`;

describe('page guard', () => {
  it('counts the words of paragraphs of prose, not of link lists', () => {
    const doc = parseHtml(videoPage);
    expect(pageWords(doc)).toEqual({ prose: 12 * 20, readability: 0 });
  });

  it("counts a <noscript>'s paragraphs as prose, and no Readability-marked text inside a script or a template", () => {
    const mark = `${READABILITY_MARK}=""`;
    const doc = parseHtml(`<html><body><p ${mark}>${sentence(0)}</p><noscript><p>${sentence(1)}</p></noscript>
<template><p ${mark}>${sentence(2)}</p></template><script ${mark}>var a = 1;</script></body></html>`);
    expect(pageWords(doc)).toEqual({ prose: 3 * 20, readability: 20 });
  });

  it('finds rules that take a byline where the page holds a story suspicious, and serves the single-page result', () => {
    const doc = parseHtml(videoPage);
    const rules = extractWithRules(doc, { selectors: ['body > div.byline', 'body > div.story > p'], clean: [] });
    expect(rules.wordCount).toBe(3);
    expect(suspectRulesOutput(doc, rules)).toMatch(/took 3 words where the page holds 240/);
    let calls = 0;
    const decision = guardRulesOutput(doc, rules, () => {
      calls++;
      return extractFallback(doc);
    });
    expect(calls).toBe(1);
    expect(decision.replace?.result.text).toContain(sentence(11));
    expect(decision.replace?.reason).toMatch(/single-page extractor took \d+/);
  });

  it('leaves rules that take the story alone without running the single-page extractor', () => {
    const doc = parseHtml(storyPage);
    const rules = extractWithRules(doc, { selectors: ['body > div.story > p'], clean: [] });
    let calls = 0;
    const decision = guardRulesOutput(doc, rules, () => {
      calls++;
      return extractFallback(doc);
    });
    expect(decision).toEqual({});
    expect(calls).toBe(0);
  });

  it('counts the rules\' words as it counts the page\'s prose, in a script written without spaces too', () => {
    // countWords makes each sentence of Japanese one word; the page's prose counts two letters a word
    const paragraph = (i: number) => `市議会は${i}日の夜に予算案を可決した。住民の多くが会場に集まり、議論の行方を見守った。反対意見も出たが、最後は賛成多数で決まった。`;
    const doc = parseHtml(`<html><head><title>市議会</title></head><body><div class="story">${Array.from({ length: 8 }, (_, i) => `<p>${paragraph(i + 1)}</p>`).join('')}</div></body></html>`);
    const rules = extractWithRules(doc, { selectors: ['body > div.story > p'], clean: [] });
    expect(rules.wordCount).toBeLessThan(DEFAULT_GUARD_OPTIONS.minShare * pageWords(doc).prose);
    expect(suspectRulesOutput(doc, rules)).toBeUndefined();
    const firstParagraph = extractWithRules(doc, { selectors: ['body > div.story > p:first-child'], clean: [] });
    expect(suspectRulesOutput(doc, firstParagraph)).toMatch(/the rules took \d+ words where the page holds \d+ in paragraphs of prose/);
  });

  it('finds output that is mostly links suspicious', () => {
    const doc = parseHtml(videoPage);
    const rules = extractWithRules(doc, { selectors: ['ul.related'], clean: [] });
    expect(linkShare(rules)).toBe(1);
    expect(suspectRulesOutput(doc, rules)).toMatch(/100% of the rules' words are in links/);
    const fallback = extractFallback(doc);
    const decision = guardRulesOutput(doc, rules, () => fallback);
    expect(decision.replace?.result).toBe(fallback);
    expect(decision.replace?.reason).toMatch(/^100% of the rules' words are in links.*; the single-page extractor took \d+$/);
  });

  it("serves the single-page result when Readability kept more and that result holds the rules' article and more (the story goes on in a second column)", () => {
    // Rules learned on pages whose story had one column take only the first column of this one.
    const mark = `${READABILITY_MARK}=""`;
    const twoColumns = `<html><head><title>Council votes</title></head><body>
<div class="story"><div class="col1">${Array.from({ length: 8 }, (_, i) => `<p ${mark}>${sentence(i)}</p>`).join('')}</div>
<div class="col2">${Array.from({ length: 8 }, (_, i) => `<p ${mark}>${sentence(i + 8)}</p>`).join('')}</div></div>
<ul class="related">${Array.from({ length: 6 }, (_, i) => `<li><a href="/s${i}">Another story number ${i} about the council</a></li>`).join('')}</ul>
</body></html>`;
    const doc = parseHtml(twoColumns);
    const rules = extractWithRules(doc, { selectors: ['div.story > div.col1 > p'], clean: [] });
    expect(rules.wordCount).toBe(8 * 20);
    expect(pageWords(doc).readability).toBe(16 * 20);
    expect(suspectRulesOutput(doc, rules)).toBe('the rules took 160 words where Readability kept 320');
    expect(containment(rules.text, extractFallback(doc).text)).toBe(1);
    const decision = guardRulesOutput(doc, rules, () => extractFallback(doc));
    expect(decision.replace?.result.text).toContain(sentence(15));
    // The same page without Readability's marks: nothing is suspicious, the single-page extractor does not run.
    const unmarked = parseHtml(twoColumns.replaceAll(` ${mark}`, ''));
    const unmarkedRules = extractWithRules(unmarked, { selectors: ['div.story > div.col1 > p'], clean: [] });
    expect(guardRulesOutput(unmarked, unmarkedRules, () => { throw new Error('not run'); })).toEqual({});
  });

  it("keeps the rules when the single-page result does not hold the rules' article, unless it has twice their words", () => {
    const doc = parseHtml(storyPage);
    const rules = extractWithRules(doc, { selectors: ['body > div.story > p'], clean: [] });
    const elsewhere = { text: 'A longer article somewhere else on the page, with words of its own and none of the story. '.repeat(30), wordCount: 540, html: '' };
    const decision = guardRulesOutput(doc, rules, () => elsewhere, { ...DEFAULT_GUARD_OPTIONS, minShare: 10 });
    // (a share of the page's prose of 10 makes any output suspicious)
    expect(decision.suspicion).toBe('the rules took 240 words where the page holds 249 in paragraphs of prose');
    // 540 ≥ 2 × the rules' words: the gain test alone serves it
    expect(decision.replace?.result).toBe(elsewhere);
    expect(decision.replace?.reason).toBe(`${decision.suspicion}; the single-page extractor took 540`);
    const notEnough = { ...elsewhere, wordCount: 300, text: elsewhere.text.slice(0, 1500) };
    expect(guardRulesOutput(doc, rules, () => notEnough, { ...DEFAULT_GUARD_OPTIONS, minShare: 10 }).replace).toBeUndefined();
  });

  it('keeps the rules when the single-page extractor finds no more than they took', () => {
    const doc = parseHtml(videoPage);
    const rules = extractWithRules(doc, { selectors: ['body > div.byline'], clean: [] });
    const decision = guardRulesOutput(doc, rules, () => ({ text: 'four words of text', wordCount: 4, html: '<p>four words of text</p>' }));
    expect(decision.suspicion).toMatch(/^the rules took \d+ words/);
    expect(decision.replace).toBeUndefined();
  });
});

describe('apply step with the page guard', () => {
  const site = 'news.example';
  const rules = {
    version: RULES_DOCUMENT_VERSION, site, rulesVersion: 2, learnedAt: '2026-01-01T00:00:00.000Z', learnedFrom: ['p1'],
    content: { selectors: ['body > div.byline', 'body > div.story > p'], clean: [] },
    clusters: [], selfCheck: { pages: 1, recall: 1, precision: 1, adjusted: [] }, params: {},
  };
  async function run(pageId: string, html: string) {
    clearRulesCache();
    const store = new MemoryStore();
    const sent: unknown[] = [];
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) };
    const q = { send: async (body: unknown) => void sent.push(body) };
    const ctx: StepContext = { store, queues: { render: q, learn: q, apply: q }, config: ConfigSchema.parse({}), logger };
    const withUrl = html.replace('<head>', `<head><meta name="spider:url" content="https://${site}/${pageId}">`);
    await store.put(keys.snapshot(site, pageId), withUrl);
    await putJson(store, keys.rules(site), rules);
    const article = await applyStep({ v: 1, site, pageId, reason: 'rendered' }, ctx);
    const drift = await store.get(keys.drift(site, pageId));
    return { article, sent, warnings, drift: drift ? DriftMarkerSchema.parse(JSON.parse(drift.body.toString('utf8'))) : undefined };
  }

  it('serves the single-page result, says so in sources and records drift when the rules take a byline of a story page', async () => {
    const { article, sent, warnings, drift } = await run('video1', videoPage);
    expect(article.method).toBe('fallback');
    expect(article.text).toContain(sentence(11));
    expect(article.sources?.text).toMatchObject({ source: 'fallback', reason: expect.stringMatching(/took 3 words where the page holds 240/) });
    expect(drift).toMatchObject({ site, pageId: 'video1', rulesVersion: 2 });
    expect(sent).toContainEqual({ v: 1, site, force: false });
    expect(warnings).toContain('rules output failed the page guard; using the fallback extractor');
  });

  it('serves the rules where they take the story', async () => {
    const { article, drift } = await run('story1', storyPage);
    expect(article.method).toBe('rules');
    expect(article.rulesVersion).toBe(2);
    expect(article.sources?.text).toBeUndefined();
    expect(drift).toBeUndefined();
  });
});
