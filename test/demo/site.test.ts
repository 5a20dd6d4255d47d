import { request } from 'node:http';
import { selectAll, selectOne } from 'css-select';
import { hasChildren, isText, type AnyNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite, TEMPLATE_IDS, type TemplateId } from '../../lib/demo/site-generator';
import { serveSite, type ServedSite } from '../../lib/demo/site-server';
import { TEMPLATES } from '../../lib/demo/templates';
import { articlesOf, pageHtml, pagesOf, truthFor, urlsOf } from '../../lib/demo/truth';

const ORIGIN = 'http://127.0.0.1:1';

/** Body blocks of each template, as the truth counts them (direct children, so ads and captions are left out). */
const BLOCKS: Record<TemplateId, string> = {
  classic: 'div.story-body > p, div.story-body > h2, div.story-body > blockquote, div.story-body > ul > li',
  blog: 'div.entry-content > p, div.entry-content > h2, div.entry-content > blockquote, div.entry-content > ul > li',
  magazine: '.rich-text__inner .para, .rich-text__heading > h2, .rich-text__quote > blockquote, .rich-text__list li',
  legacy: 'td.article-text > p, td.article-text > h2, td.article-text > blockquote, td.article-text > ul > li',
};

function text(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (hasChildren(node)) return node.children.map(text).join('');
  return '';
}

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function parse(html: string) {
  return parseDocument(html);
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('generateSite', () => {
  const site = generateSite({ seed: 'test-a', pagesPerTemplate: 6, templates: 4, brokenRate: 0.2 });

  it('is deterministic: same seed and options, same pages byte for byte', () => {
    const again = generateSite({ seed: 'test-a', pagesPerTemplate: 6, templates: 4, brokenRate: 0.2 });
    expect(again.pages).toEqual(site.pages);
    expect([...again.files.keys()]).toEqual([...site.files.keys()]);
    for (const [path, file] of site.files) expect(again.files.get(path)).toEqual(file);
  });

  it('gives another site for another seed', () => {
    const other = generateSite({ seed: 'test-b', pagesPerTemplate: 6, templates: 4, brokenRate: 0.2 });
    const paths = new Set(site.pages.map((p) => p.path));
    expect(other.pages.filter((p) => p.kind === 'article' && paths.has(p.path))).toHaveLength(0);
    expect(other.files.get('/')!.body).not.toEqual(site.files.get('/')!.body);
  });

  it('makes pagesPerTemplate healthy articles per template, the home page, and broken pages at brokenRate', () => {
    expect(site.templates).toEqual([...TEMPLATE_IDS]);
    for (const t of TEMPLATE_IDS) expect(articlesOf(site, t)).toHaveLength(6);
    expect(pagesOf(site, { kind: 'home' }).map((p) => p.path)).toEqual(['/']);
    const broken = pagesOf(site, { kind: 'broken' });
    expect(broken).toHaveLength(6); // 24 healthy: 6 / 30 = 0.2
    expect(new Set(broken.map((p) => p.broken))).toEqual(new Set(['not-found', 'server-error', 'not-html']));
    expect(site.pages[0].path).toBe('/');
    expect(new Set(site.pages.map((p) => p.path)).size).toBe(site.pages.length);
  });

  it('defaults to 3 templates and no broken pages, and validates options', () => {
    const small = generateSite({ seed: 1, pagesPerTemplate: 2 });
    expect(small.templates).toEqual(['classic', 'blog', 'magazine']);
    expect(pagesOf(small, { kind: 'broken' })).toHaveLength(0);
    expect(articlesOf(small)).toHaveLength(6);
    expect(() => generateSite({ seed: 1, pagesPerTemplate: 0 })).toThrow();
    expect(() => generateSite({ seed: 1, pagesPerTemplate: 2, templates: 5 })).toThrow();
    expect(() => generateSite({ seed: 1, pagesPerTemplate: 2, brokenRate: 1 })).toThrow();
    expect(() => generateSite({ seed: 1, pagesPerTemplate: 2, host: 'Not A Host' })).toThrow();
  });

  it('uses the given name and host label', () => {
    const named = generateSite({ seed: 1, pagesPerTemplate: 1, name: 'The Test Times', host: 'news-a' });
    expect(named.name).toBe('The Test Times');
    expect(named.host).toBe('news-a');
    const a = articlesOf(named)[0];
    expect(pageHtml(named, a.path, ORIGIN)).toContain(`<title>${a.title} | The Test Times</title>`);
  });

  it('puts article URLs under /YYYY/MM/DD/<slug>.html matching the publication date', () => {
    for (const p of pagesOf(site).filter((p) => p.kind !== 'home')) {
      expect(p.path).toMatch(/^\/\d{4}\/\d{2}\/\d{2}\/[a-z0-9-]+\.html$/);
    }
    for (const p of articlesOf(site)) {
      expect(p.published).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(p.path.slice(1, 11).replaceAll('/', '-')).toBe(p.published.slice(0, 10));
    }
    const dates = articlesOf(site).map((p) => p.published);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('serves the truth: the body blocks in the HTML are the truth bodyText, line for line', () => {
    for (const p of articlesOf(site)) {
      const doc = parse(pageHtml(site, p.path, ORIGIN));
      const template = p.template!;
      expect(selectOne(TEMPLATES[template].bodySelector, doc), p.path).toBeTruthy();
      const lines = selectAll(BLOCKS[template], doc).map((el) => clean(text(el)));
      expect(lines.join('\n'), `${template} ${p.path}`).toBe(p.bodyText);
      const h1 = selectAll('h1', doc);
      expect(h1).toHaveLength(1);
      expect(clean(text(h1[0]))).toBe(p.title);
      expect(clean(text(selectOne('title', doc)!))).toBe(`${p.title} | ${site.name}`);
      expect(clean(text(doc))).toContain(p.byline);
    }
  });

  it('builds every article from the same parts: nav, sidebar, breadcrumb, subheads, quote, list, related, comments, footer', () => {
    for (const p of articlesOf(site)) {
      const html = pageHtml(site, p.path, ORIGIN);
      const doc = parse(html);
      const paragraphs = p.bodyText.split('\n').length;
      expect(paragraphs).toBeGreaterThanOrEqual(5 + 1 + 1 + 3);
      expect(selectAll('a', doc).length, 'many links').toBeGreaterThan(60);
      expect(html).toContain('Advertisement');
      expect(html).toContain('Related articles');
      expect(html).toMatch(/Home<\/a>/);
      expect(html).toContain(`© ${2026} ${site.name}`);
      const body = selectOne(TEMPLATES[p.template!].bodySelector, doc)!;
      expect(selectAll('h2', body).length).toBeGreaterThanOrEqual(1);
      expect(selectAll('blockquote', body)).toHaveLength(1);
      expect(selectAll('ul', body)).toHaveLength(1);
      expect(selectAll('style', doc)).toHaveLength(1);
      const bytes = Buffer.byteLength(html);
      expect(bytes).toBeGreaterThan(10_000);
      expect(bytes).toBeLessThan(60_000);
      expect(p.wordCount).toBeGreaterThan(150);
    }
  });

  it('writes distinct prose on every page: paragraphs never repeat across pages, other lines rarely', () => {
    const seen = new Map<string, number>();
    let lines = 0;
    for (const p of articlesOf(site)) {
      for (const line of p.bodyText.split('\n')) {
        lines++;
        seen.set(line, (seen.get(line) ?? 0) + 1);
      }
    }
    const repeated = [...seen].filter(([, n]) => n > 1).map(([line]) => line);
    expect(repeated.filter((line) => line.split(' ').length >= 15)).toEqual([]);
    expect(repeated.length / lines).toBeLessThan(0.03);
    expect(new Set(articlesOf(site).map((p) => p.title)).size).toBe(articlesOf(site).length);
  });

  it('keeps comments prose-like but out of the truth', () => {
    const p = articlesOf(site, 'classic')[0];
    const doc = parse(pageHtml(site, p.path, ORIGIN));
    const comments = selectAll('.comment-body p', doc).map((el) => clean(text(el)));
    expect(comments.length).toBeGreaterThanOrEqual(3);
    for (const c of comments) {
      expect(c).toMatch(/[.?!]$/);
      expect(p.bodyText).not.toContain(c);
    }
  });

  it('differs between templates in markup, class names, CSS and metadata', () => {
    const htmlOf = (t: TemplateId) => pageHtml(site, articlesOf(site, t)[0].path, ORIGIN);
    const classesOf = (html: string) => new Set([...html.matchAll(/class="([^"]+)"/g)].flatMap((m) => m[1].split(/\s+/)));
    const styleOf = (html: string) => html.slice(html.indexOf('<style>'), html.indexOf('</style>'));
    for (const a of TEMPLATE_IDS) {
      for (const b of TEMPLATE_IDS) {
        if (a === b) continue;
        const docB = parse(htmlOf(b));
        expect(selectOne(TEMPLATES[a].bodySelector, docB), `${a} body selector on a ${b} page`).toBeNull();
        const ca = classesOf(htmlOf(a));
        const cb = classesOf(htmlOf(b));
        const shared = [...ca].filter((c) => cb.has(c));
        expect(shared.length / Math.min(ca.size, cb.size), `${a} vs ${b} classes`).toBeLessThan(0.2);
        expect(styleOf(htmlOf(a))).not.toBe(styleOf(htmlOf(b)));
      }
    }
    // Metadata by template: classic full, magazine partial, blog and legacy none.
    const classic = htmlOf('classic');
    expect(classic).toContain('<meta name="description"');
    expect(classic).toContain('<meta property="og:title"');
    expect(classic).toContain('"@type": "NewsArticle"');
    expect(classic).toContain('<link rel="alternate" type="application/rss+xml"');
    const magazine = htmlOf('magazine');
    expect(magazine).not.toContain('<meta name="description"');
    expect(magazine).toContain('<meta property="og:title"');
    expect(magazine).toContain('"@type": "NewsArticle"');
    for (const t of ['blog', 'legacy'] as const) {
      const html = htmlOf(t);
      expect(html).not.toContain('<meta name="description"');
      expect(html).not.toContain('og:');
      expect(html).not.toContain('application/ld+json');
      expect(html).not.toContain('application/rss+xml');
    }
  });

  it('has JSON-LD that agrees with the truth', () => {
    for (const p of articlesOf(site).filter((p) => p.metadata !== 'none')) {
      const html = pageHtml(site, p.path, ORIGIN);
      const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1];
      const data = JSON.parse(json);
      expect(data.headline).toBe(p.title);
      expect(data.author.name).toBe(p.byline);
      expect(data.datePublished).toBe(p.published);
    }
  });

  it('finds truth by path or by URL', () => {
    const p = articlesOf(site)[3];
    expect(truthFor(site, p.path)).toBe(p);
    expect(truthFor(site, `http://news-a.localhost:8080${p.path}?utm=x#top`)).toBe(p);
    expect(truthFor(site, '/nope.html')).toBeUndefined();
    expect(urlsOf(site, 'http://h:1', { kind: 'article' })[0]).toBe(`http://h:1${articlesOf(site)[0].path}`);
  });
});

describe('serveSite', () => {
  const site = generateSite({ seed: 'serve', pagesPerTemplate: 3, brokenRate: 0.25, host: 'news-a' });
  let served: ServedSite;

  beforeAll(async () => {
    served = await serveSite(site);
  });
  afterAll(async () => {
    await served.close();
  });

  it('serves every page over HTTP on 127.0.0.1 with its origin filled in', async () => {
    expect(served.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const p of pagesOf(site).filter((p) => p.kind !== 'broken')) {
      const res = await fetch(served.url(p.path));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const body = await res.text();
      expect(body).toBe(pageHtml(site, p.path, served.origin));
      expect(body).not.toContain('{{origin}}');
    }
  });

  it('answers 404 for unknown paths, and robots.txt allows all', async () => {
    expect((await fetch(served.url('/no/such/page.html'))).status).toBe(404);
    expect((await fetch(served.url('/section/news/'))).status).toBe(404);
    const robots = await fetch(served.url('/robots.txt'));
    expect(robots.status).toBe(200);
    const text = await robots.text();
    expect(text).toMatch(/User-agent: \*\nAllow: \//);
    expect(text).toContain(`Sitemap: ${served.origin}/sitemap.xml`);
  });

  it('makes broken pages misbehave as declared', async () => {
    const broken = pagesOf(site, { kind: 'broken' });
    expect(broken.length).toBe(3); // 9 healthy: 3 / 12 = 0.25
    for (const p of broken) {
      const res = await fetch(served.url(p.path));
      expect(res.status).toBe(p.status);
      expect(res.headers.get('content-type')).toBe(p.contentType);
      if (p.broken === 'not-found') expect(res.status).toBe(404);
      if (p.broken === 'server-error') expect(res.status).toBe(500);
      if (p.broken === 'not-html') {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).not.toMatch(/html/);
      }
      await res.arrayBuffer();
    }
  });

  it('serves an RSS 2.0 feed of the articles of templates with metadata', async () => {
    const res = await fetch(served.url('/feed.xml'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\s*<rss version="2.0"/);
    expect(xml).toContain(`<title>${site.name}</title>`);
    const items = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]);
    const expected = articlesOf(site).filter((p) => p.inFeed);
    expect(expected.map((p) => p.template)).not.toContain('blog');
    expect(items).toHaveLength(expected.length);
    expect(expected.length).toBeGreaterThan(0);
    items.forEach((item, i) => {
      const p = expected[i];
      const field = (name: string) => new RegExp(`<${name}[^>]*>([\\s\\S]*?)</${name}>`).exec(item)?.[1];
      expect(field('title')).toBe(p.title.replace(/&/g, '&amp;'));
      expect(field('link')).toBe(served.origin + p.path);
      expect(field('dc:creator')).toBe(p.byline);
      expect(new Date(field('pubDate')!).toISOString().replace('.000Z', 'Z')).toBe(p.published);
      expect(field('description')!.length).toBeGreaterThan(20);
    });
  });

  it('serves figure images and answers HEAD', async () => {
    // the first classic article with a figure (not every article has one)
    const src = articlesOf(site, 'classic')
      .map((a) => /<img[^>]+src="(\/media\/[^"]+\.svg)"/.exec(pageHtml(site, a.path, served.origin))?.[1])
      .find((s) => s !== undefined);
    expect(src).toBeDefined();
    const res = await fetch(served.url(src!));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toMatch(/^<svg /);
    const head = await get(served.url('/'), {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('ignores the Host header for routing and uses it for absolute links', async () => {
    const res = await get(`${served.ipOrigin}/feed.xml`, { host: `news-a.localhost:${served.port}` });
    expect(res.status).toBe(200);
    expect(res.body).toContain(`<link>http://news-a.localhost:${served.port}/</link>`);
  });

  it('counts requests', async () => {
    const before = served.requests;
    await (await fetch(served.url('/'))).text();
    await (await fetch(served.url('/missing'))).text();
    expect(served.requests).toBe(before + 2);
    expect(served.requestsByPath.get('/missing')).toBe(1);
  });

  it('serves several sites at once, each on its own port, under a hostname if asked', async () => {
    const other = generateSite({ seed: 'serve-2', pagesPerTemplate: 1, host: 'news-b' });
    const second = await serveSite(other, { hostname: 'news-b.localhost' });
    try {
      expect(second.port).not.toBe(served.port);
      expect(second.origin).toBe(`http://news-b.localhost:${second.port}`);
      expect(second.ipOrigin).toBe(`http://127.0.0.1:${second.port}`);
      const res = await fetch(`${second.ipOrigin}/`);
      expect(await res.text()).toContain(other.name);
      const first = await fetch(`${served.ipOrigin}/`);
      expect(await first.text()).toContain(site.name);
    } finally {
      await second.close();
    }
  });
});
