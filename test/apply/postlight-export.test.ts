/**
 * Learned rules exported as a Postlight Parser custom extractor extract what apply extracts: a generated
 * site learned in the embedded pipeline (real Chromium, 127.0.0.1), its rules exported, and Postlight
 * Parser (the real package) run with the export on the snapshots of pages the learner never saw.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPostlightExtractor } from '../../lib/apply/postlight-export';
import { loadConfig } from '../../lib/config/config';
import { articlesOf, generateSite, serveSite, type ServedSite, type TemplateId } from '../../lib/demo/index';
import { EmbeddedPipeline } from '../../lib/pipeline/embedded';
import { keys, pageIdOf } from '../../lib/store/keys';
import { getJson, getText } from '../../lib/store/store';
import { ArticleDocumentSchema, type ArticleDocument } from '../../lib/types/article-document';
import { RulesDocumentSchema, type FieldRules, type RulesDocument } from '../../lib/types/rules-document';
import { parseWithPostlight, tokenF1 } from '../helpers/articles';

const site = generateSite({ seed: 'postlight-export', pagesPerTemplate: 10, templates: 2 });
let served: ServedSite;
let pipeline: EmbeddedPipeline;

beforeAll(async () => {
  served = await serveSite(site);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-postlight-'));
  pipeline = await new EmbeddedPipeline(loadConfig({ dataDir, relearnAfter: 1000, retryBaseMs: 10 }), { ephemeralQueues: true }).open();
});
afterAll(async () => {
  await pipeline?.close();
  await served?.close();
});

const templates = [...new Set(articlesOf(site).map((p) => p.template))] as TemplateId[];

/**
 * What the learner learns of each template of this seeded site: classic's rules tell its dek, and its
 * byline and date (from its feeds); blog's tell no dek (their header stands in for it), a byline (its
 * author-marked element, as Readability read it) and a date (the element showing the day its URLs
 * name): no feed or metadata gives either. The fields Postlight then gives as our article does, and
 * its dek: blog's is the header line; classic's it drops, as it says what the page's description says.
 */
const expected: Record<string, { learns: { dek: boolean; byline: boolean; date: boolean }; fields: readonly ('byline' | 'published')[]; dek: (a: ArticleDocument) => string | null }> = {
  blog: { learns: { dek: false, byline: true, date: true }, fields: ['byline', 'published'], dek: (a) => a.header ?? '' },
  classic: { learns: { dek: true, byline: true, date: true }, fields: ['byline', 'published'], dek: () => null },
};

/** A field's rules as the export names them: their selectors, best first, each once. */
const selectorsOf = (field: FieldRules | undefined) => (field?.rules.length ? { selectors: [...new Set(field.rules.map((r) => r.selector))] } : undefined);

describe.each(templates)('a %s site exported to Postlight Parser', (template) => {
  it("exports the selectors learned (dek, byline, date); on unseen pages Postlight gives our articles' title, learned byline and date, and text (token F1 >= 0.95), and the dek it keeps", { timeout: 180_000 }, async () => {
    const host = `${template}.localhost`;
    const urlFor = (p: string) => `http://${host}:${served.port}${p}`;
    const pages = articlesOf(site, template);
    await pipeline.submit(pages.slice(0, 5).map((p) => ({ url: urlFor(p.path) })));
    await pipeline.run();
    const rules = await getJson(pipeline.store, keys.rules(host), (v) => RulesDocumentSchema.parse(v));
    expect(rules, 'rules learned').toBeDefined();
    const unseen = pages.slice(5);
    await pipeline.submit(unseen.map((p) => ({ url: urlFor(p.path) })));
    await pipeline.run();

    const extractor = toPostlightExtractor(rules!);
    expect(extractor.domain).toBe(host);
    expect(extractor.title).toBeDefined();
    // what the learner learned, and the export naming it: the field rules' selectors, the dek's (else the header's)
    const { learns } = expected[template];
    expect(Boolean(rules!.content.dek?.length), 'dek learned').toBe(learns.dek);
    expect(Boolean(rules!.fields?.byline?.rules.length), 'byline learned').toBe(learns.byline);
    expect(Boolean(rules!.fields?.published?.rules.length), 'date learned').toBe(learns.date);
    expect(extractor.title).toEqual(selectorsOf(rules!.fields?.title));
    expect(extractor.author).toEqual(selectorsOf(rules!.fields?.byline));
    expect(extractor.date_published?.selectors).toEqual(selectorsOf(rules!.fields?.published)?.selectors);
    // the zone Postlight reads a shown time in: the site's, so that its date is ours on any machine (run under TZ=Asia/Tokyo)
    if (rules!.fields?.published) expect(extractor.date_published?.timezone).toMatch(/^Etc\//);
    expect(extractor.dek).toEqual({ selectors: [(learns.dek ? rules!.content.dek : rules!.content.header)!.join(', ')] });
    // what a user saves and loads: the JSON `spider rules <site> --format postlight` prints
    const loaded = JSON.parse(JSON.stringify(extractor));
    const scores: number[] = [];
    for (const p of unseen) {
      const url = urlFor(p.path);
      const ours = await getJson(pipeline.store, keys.article(host, pageIdOf(url)), (v) => ArticleDocumentSchema.parse(v));
      expect(ours?.method).toBe('rules');
      // the rendered snapshot, or the HTML as served for a page the fetch path took (no browser)
      const html = (await getText(pipeline.store, keys.snapshot(host, pageIdOf(url)))) ?? (await getText(pipeline.store, keys.served(host, pageIdOf(url))));
      expect(html, 'the page as stored').toBeDefined();
      // both HTMLs read into text the same way: the selection is compared
      const theirs = await parseWithPostlight(url, html!, loaded);
      scores.push(tokenF1(theirs.text, ours!.text));
      expect(theirs.title).toBe(ours!.title);
      // a date without a time (the day its page shows): Postlight writes it as that day's midnight in
      // the export's zone (UTC, with no offset learned), whatever the machine's
      const theirDate = ours!.published?.length === 10 ? theirs.datePublished?.slice(0, 10) : theirs.datePublished;
      for (const field of expected[template].fields) expect(field === 'byline' ? theirs.author : theirDate, field).toBe(ours![field]);
      expect(theirs.dek, 'dek').toBe(expected[template].dek(ours!));
    }
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    expect(mean, `per page: ${scores.map((s) => s.toFixed(3)).join(' ')}`).toBeGreaterThanOrEqual(0.95);
  });
});

describe("the export's date zone", () => {
  const withOffset = (utcOffsetMinutes?: number) =>
    toPostlightExtractor({
      site: 'news.example',
      content: { selectors: ['article p'], clean: [] },
      fields: { published: { rules: [{ kind: 'class', value: 'date', selector: '.date', score: 1, support: 5 }], posts: 5, ...(utcOffsetMinutes !== undefined ? { utcOffsetMinutes } : {}) } },
    } as unknown as RulesDocument).date_published;
  it('is the learned UTC offset as an Etc zone (its sign reversed), UTC without one, none for part of an hour', () => {
    expect(withOffset(-300)).toEqual({ selectors: ['.date'], timezone: 'Etc/GMT+5' });
    expect(withOffset(540)?.timezone).toBe('Etc/GMT-9');
    expect(withOffset(undefined)?.timezone).toBe('Etc/UTC');
    expect(withOffset(0)?.timezone).toBe('Etc/UTC');
    expect(withOffset(330)).toEqual({ selectors: ['.date'] });
  });
});

describe("the export's supported domains", () => {
  const rulesFor = (site: string) => ({ site, content: { selectors: ['article p'], clean: [] } }) as unknown as RulesDocument;
  it('are the host with www. added or taken off, none for an IP address or a one-label host', () => {
    expect(toPostlightExtractor(rulesFor('news.example')).supportedDomains).toEqual(['www.news.example']);
    expect(toPostlightExtractor(rulesFor('www.news.example')).supportedDomains).toEqual(['news.example']);
    expect(toPostlightExtractor(rulesFor('127.0.0.1')).supportedDomains).toBeUndefined();
    expect(toPostlightExtractor(rulesFor('localhost')).supportedDomains).toBeUndefined();
  });
});

describe("the export's clean selectors, in Postlight Parser", () => {
  // Postlight moves the taken elements into a detached <div> and looks the clean selectors up inside
  // it: a clean selector that names an ancestor of a taken element matches nothing (docs/rules-document.md).
  const body = 'The council met on Tuesday and voted on the harbour budget after a long debate about the ferry.';
  const html = `<!doctype html><html><head><title>Harbour vote</title></head><body><article class="post"><h1>Harbour vote</h1><div class="entry">
<p>${body} One.</p><p class="postmeta">Posted by Jane META</p><div class="related"><a href="/x">RELATED link</a></div><p>${body} Two.</p></div></article></body></html>`;
  const kept = async (selectors: string[], clean: string[]) => {
    const rules = { site: 'news.example', content: { selectors, clean } } as unknown as RulesDocument;
    const { text } = await parseWithPostlight('http://news.example/a.html', html, JSON.parse(JSON.stringify(toPostlightExtractor(rules))));
    return ['META', 'RELATED'].filter((w) => text.includes(w));
  };

  it('work from a taken element or inside one, not from above it', async () => {
    expect(await kept(['div.entry > p'], ['p.postmeta'])).toEqual([]);
    // written from the container, as the learner writes them: the taken p's parent is not above it in the wrapper
    expect(await kept(['div.entry > p'], ['div.entry > p.postmeta'])).toEqual(['META']);
    expect(await kept(['article.post > div.entry'], ['div.entry div.related', 'div.entry > p.postmeta'])).toEqual([]);
    expect(await kept(['article.post > div.entry'], ['article.post div.related'])).toEqual(['META', 'RELATED']);
  });
});
