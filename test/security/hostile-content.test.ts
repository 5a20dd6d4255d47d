/**
 * What a page says is data, never code or commands: the collector runs in an isolated world (a page
 * that sabotages its own built-ins cannot change what is collected), nothing from a page is evaluated
 * in Node, feature documents are validated before they are stored, class names and ids built to break
 * CSS selectors are escaped when rules are learned, and a rules document holding selectors that do not
 * compile still applies (those are skipped).
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidSelector } from '../../lib/html/selector';
import { loadConfig } from '../../lib/config/config';
import { EmbeddedPipeline } from '../../lib/pipeline/embedded';
import { Renderer } from '../../lib/render/browser';
import { keys, pageIdOf, siteOf } from '../../lib/store/keys';
import { getJson, putJson } from '../../lib/store/store';
import { ArticleDocumentSchema } from '../../lib/types/article-document';
import { RulesDocumentSchema } from '../../lib/types/rules-document';
import { articlesOf, generateSite, pageHtml, truthFor } from '../../lib/demo/index';
import { serveRoutes, type TestServer } from '../helpers/http-server';

const SABOTAGE = `<script>
  // Everything a naive in-page collector would lean on, broken or lying.
  Array.prototype.push = function () { throw new Error('no push for you'); };
  JSON.stringify = () => '{"hacked":true}';
  Object.keys = () => ['hacked'];
  window.getComputedStyle = () => { throw new Error('no styles'); };
  Element.prototype.getBoundingClientRect = () => ({ x: 0, y: 0, top: 0, left: 0, width: 0, height: 0 });
  Node.prototype.textContent; Object.defineProperty(Node.prototype, 'textContent', { get() { return 'HACKED'; } });
  Map.prototype.set = function () { return this; };
  String.prototype.trim = function () { return 'HACKED'; };
  window.__spiderResult = { blocks: [{ text: 'injected' }] };
</script>`;

/** Class names and ids made to break a selector or a consumer of one. */
const NASTY = ['a"]{}*{x', 'b\\\\', 'c:nth-child(1)', '__proto__', 'd,e', 'f>g', '1digit', '-', '--x', 'h\u0000i', 'j k'.replace(' ', '\t'), 'l'.repeat(300), 'π-ünï', '<script>'];

/** A generated article page made hostile: sabotage in <head>, a nasty class and id on every element that has one. */
function hostile(html: string): string {
  const pick = (name: string) => NASTY[[...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % NASTY.length];
  const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return html
    .replace('<head>', `<head>${SABOTAGE}`)
    .replace(/class="([^"]*)"/g, (_m, c: string) => `class="${c} ${attr(pick(c))}"`)
    .replace(/id="([^"]*)"/g, (_m, id: string) => `id="${attr(pick(id) + id)}"`);
}

const site = generateSite({ seed: 'hostile-content', pagesPerTemplate: 6, templates: 1 });
const articles = articlesOf(site);

let server: TestServer;
beforeAll(async () => {
  server = await serveRoutes({
    '/article': (req) => {
      const i = Number(new URL(req.url!, 'http://x').searchParams.get('i'));
      return { body: hostile(pageHtml(site, articles[i].path, `http://${req.headers.host}`)) };
    },
  });
});
afterAll(() => server?.close());

describe('hostile page content (real Chromium)', () => {
  it('a page that sabotages its own built-ins cannot change what the collector sees', async () => {
    const renderer = new Renderer(loadConfig({ allowHosts: [new URL(server.origin).host] }));
    try {
      const result = await renderer.render({ url: `${server.origin}/article?i=1` });
      const texts = result.collected.blocks.map((b) => b.text);
      expect(texts).toContain(articles[1].title);
      expect(texts.length).toBeGreaterThan(5);
      expect(texts).not.toContain('HACKED');
      expect(texts).not.toContain('injected');
      expect(result.collected.blocks.every((b) => b.bbox.width > 0)).toBe(true); // real geometry
      expect(result.collected.blocks.find((b) => b.text === articles[1].title)?.css['font-size']).toBeDefined(); // real styles
    } finally {
      await renderer.close();
    }
  });

  it('learned rules from hostile class names compile and apply; a rules document with broken selectors still applies', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-hostile-'));
    const p = await new EmbeddedPipeline(loadConfig({ dataDir, allowHosts: [new URL(server.origin).host], hostIntervalMs: 0, learnMinPages: 5, relearnAfter: 1000 }), { ephemeralQueues: true }).open();
    try {
      const urls = Array.from({ length: 6 }, (_, i) => `${server.origin}/article?i=${i}`);
      await p.submit(urls.map((url) => ({ url })));
      await p.run();
      expect(p.deadLetters()).toEqual([]);
      const siteName = siteOf(urls[0]);
      const rules = await getJson(p.store, keys.rules(siteName), (v) => RulesDocumentSchema.parse(v));
      expect(rules).toBeDefined();
      for (const s of [...rules!.content.selectors, ...rules!.content.clean]) expect(isValidSelector(s), s).toBe(true);
      const firstWords = (i: number) => truthFor(site, articles[i].path)!.bodyText.split(/\s+/).slice(0, 8).join(' ');
      for (const [i, url] of urls.entries()) {
        const article = await getJson(p.store, keys.article(siteName, pageIdOf(url)), (v) => ArticleDocumentSchema.parse(v));
        expect(article?.text.replace(/\s+/g, ' '), url).toContain(firstWords(i));
      }

      // A rules document with selectors that do not compile (as a hostile or corrupted writer might leave).
      await putJson(p.store, keys.rules(siteName), {
        ...rules,
        rulesVersion: rules!.rulesVersion + 1,
        content: { ...rules!.content, selectors: ['div[', 'p:nth-child(', '}{', ...rules!.content.selectors], clean: ['>>>', ...rules!.content.clean] },
      });
      await p.queues.apply.send({ v: 1, site: siteName, pageId: pageIdOf(urls[2]), reason: 'requested' });
      await p.run();
      expect(p.deadLetters()).toEqual([]);
      const again = await getJson(p.store, keys.article(siteName, pageIdOf(urls[2])), (v) => ArticleDocumentSchema.parse(v));
      expect(again?.text.replace(/\s+/g, ' ')).toContain(firstWords(2));
      expect(again?.method).toBe('rules');
      expect(again?.rulesVersion).toBe(rules!.rulesVersion + 1);
    } finally {
      await p.close();
    }
  });
});
