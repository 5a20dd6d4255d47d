/**
 * A synthetic multi-template news site, generated deterministically from a seed, with the generator's
 * truth for every page (what an extractor should find on it).
 *
 *   const site = generateSite({ seed: 'a', pagesPerTemplate: 6 });
 *   const served = await serveSite(site);          // lib/demo/site-server.ts
 *   site.pages.filter((p) => p.kind === 'article') // truth: title, byline, published, bodyText
 *
 * Served paths: `/` (home, lists the articles), `/YYYY/MM/DD/<slug>.html` (articles and broken pages),
 * `/feed.xml` (RSS 2.0, articles of templates with metadata), `/sitemap.xml`, `/robots.txt`,
 * `/media/<slug>.svg` (figures). Anything else is a 404.
 */
import { figureSvg, FIGURE_HEIGHT, FIGURE_WIDTH } from './media';
import { renderFeed, renderRobots, renderSitemap } from './feed';
import type { ArticleModel, Author, BodyBlock, Comment, Figure, LinkItem, MetadataLevel, SiteModel, TemplateId } from './model';
import { bodyTextOf, TEMPLATE_IDS } from './model';
import { Rng } from './prng';
import { createStory, personName, SECTIONS, slugify, StoryWriter } from './prose';
import { renderHome, TEMPLATES } from './templates';

export type { TemplateId, MetadataLevel } from './model';
export { TEMPLATE_IDS, ORIGIN_TOKEN } from './model';

export interface SiteOptions {
  /** Same seed (and options), same site, byte for byte. */
  seed: string | number;
  /** Healthy article pages per template (broken pages come on top, see `brokenRate`). */
  pagesPerTemplate: number;
  /** How many templates the site uses, 1 to 4, taken in `TEMPLATE_IDS` order. Default 3. */
  templates?: number;
  /** Display name ("The Millbrook Ledger"). Default: drawn from the seed. */
  name?: string;
  /** Host label, `[a-z0-9-]+` ("news-a"): for `news-a.localhost`, contact addresses. Default: from the name. */
  host?: string;
  /**
   * Share of all article-like pages that are intentionally broken (404, 500, or not HTML), in [0, 1).
   * Broken pages are added to the healthy ones: broken / (healthy + broken) ≈ brokenRate. Default 0.
   */
  brokenRate?: number;
  /** Date (YYYY-MM-DD) of the newest article; older ones go back a few hours to days each. Default 2026-03-14. */
  latest?: string;
}

export type PageKind = 'article' | 'home' | 'broken';

/** How a broken page misbehaves. */
export type BrokenKind = 'not-found' | 'server-error' | 'not-html';

/** The generator's truth for one served page. */
export interface PageTruth {
  /** URL path, e.g. `/2026/03/14/council-approves-budget.html`. */
  path: string;
  kind: PageKind;
  /** Template of an article page; null for the home page and broken pages. */
  template: TemplateId | null;
  /** Headline (the h1) of an article; the site name for the home page; '' for broken pages. */
  title: string;
  /** Author's name, without "By" ("Jane Doe"); '' when none. */
  byline: string;
  /** ISO 8601 UTC (`2026-03-14T09:30:00Z`); '' when none. Pages show the date, some also the time. */
  published: string;
  /**
   * Article body as plain text, one block per line: paragraphs, subheads, blockquote and list items, in
   * order. Not the headline, standfirst, byline, figure captions, ads, related links or comments.
   * '' for the home page and broken pages.
   */
  bodyText: string;
  /** Words in bodyText. */
  wordCount: number;
  /** Standfirst under the headline; also the meta/og/feed description where the template has them. */
  description: string;
  /** The standfirst as the page shows it under the headline (the description); '' when the template shows none. */
  dek: string;
  section: string;
  /** Metadata the page carries besides its visible HTML (see `MetadataLevel`). */
  metadata: MetadataLevel;
  /** Listed in /feed.xml. */
  inFeed: boolean;
  /** HTTP status and content type the server answers with. */
  status: number;
  contentType: string;
  broken?: BrokenKind;
}

/** A response the server sends for a path. Text bodies may hold `ORIGIN_TOKEN`. */
export interface SiteFile {
  status: number;
  contentType: string;
  body: string | Uint8Array;
}

export interface GeneratedSite {
  name: string;
  host: string;
  seed: string;
  templates: TemplateId[];
  /** Home page first, then article-like pages newest first (broken pages among them). */
  pages: PageTruth[];
  /** Everything served, by path. */
  files: ReadonlyMap<string, SiteFile>;
}

const HTML = 'text/html; charset=utf-8';

const SITE_NAMES = [
  'The Millbrook Ledger', 'Harbor City Courier', 'The Eastport Sentinel', 'Cedar Valley Gazette', 'The Northgate Tribune',
  'Lakeshore Daily', 'The Stonebridge Observer', 'Fairhaven Press', 'The Bayview Chronicle', 'Ashford Herald',
];

const TAGLINES = [
  'News for the whole valley', 'Independent, local, and reader-funded', 'Reporting on the region since 1989',
  'What matters where you live', 'Local news, every morning',
];

const ACCENTS = ['#b3261e', '#0b5394', '#1b7340', '#7b3fa0', '#c2571a', '#006d77', '#8a1538'];

const TOPICS = [
  'Election 2026', 'Budget Watch', 'Housing Crisis', 'Transit Plan', 'Heat Wave', 'School Board', 'Data Privacy',
  'Wildfire Season', 'Downtown Revival', 'Water Rates', 'Small Business', 'Public Safety',
];

const EXTRA_SECTIONS_FRONT = ['News', 'Politics'];
const EXTRA_SECTIONS_BACK = ['Opinion', 'Sports', 'Arts', 'Food', 'Travel', 'Obituaries', 'Weather', 'Podcasts', 'Video', 'Newsletters', 'Events', 'Puzzles'];

const ADS = [
  'Refinance today with rates from 5.9% APR. Terms apply.',
  'Summer camp registration is open. Save 15% before April 1.',
  'Hearing aids that fit any budget. Book a free consultation.',
  'The Riverside Auto Mall spring sales event is on now.',
  'Try our meal kits free for one week. Cancel any time.',
  'New homes in Willow Park from the low $400s. Tour the model home.',
];

const ROLES = ['Staff Writer', 'Senior Reporter', 'Local Government Reporter', 'Correspondent', 'Contributing Writer', 'Data Reporter'];

export function generateSite(options: SiteOptions): GeneratedSite {
  const o = validate(options);
  const root = new Rng(`demo-site:${o.seed}`);
  const siteRng = root.fork('site');

  const name = o.name ?? siteRng.pick(SITE_NAMES);
  const host = o.host ?? slugify(name.replace(/^The /, ''));
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(host)) throw new Error(`not a valid host label: ${JSON.stringify(host)}`);
  const templates = TEMPLATE_IDS.slice(0, o.templates);
  const staff: Author[] = Array.from({ length: 8 }, () => {
    const n = personName(siteRng);
    return { name: n, slug: slugify(n), role: siteRng.pick(ROLES) };
  });
  const latestMs = Date.parse(`${o.latest}T18:00:00Z`);

  // Article skeletons (story, headline, path, date), newest first; templates interleaved in time.
  const order = siteRng.shuffle(templates.flatMap((t) => Array.from({ length: o.pagesPerTemplate }, () => t)));
  const brokenCount = Math.round((order.length * o.brokenRate) / (1 - o.brokenRate));
  const brokenAt = new Set(siteRng.sample(range(order.length + brokenCount), brokenCount));
  const brokenKinds = siteRng.shuffle<BrokenKind>(['not-found', 'server-error', 'not-html']);

  const usedSlugs = new Set<string>();
  const usedHeadlines = new Set<string>();
  let time = latestMs;
  let nextTemplate = 0;
  let nextBroken = 0;
  const drafts: Draft[] = [];
  for (let i = 0; i < order.length + brokenCount; i++) {
    const rng = root.fork(`page:${i}`);
    time -= rng.int(3 * 60, 40 * 60) * 60_000;
    const published = new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const writer = new StoryWriter(rng, createStory(rng, name));
    let headline = writer.headline();
    for (let tries = 0; usedHeadlines.has(headline) && tries < 20; tries++) headline = writer.headline();
    usedHeadlines.add(headline);
    const slug = uniqueSlug(slugify(headline), usedSlugs);
    const path = `/${published.slice(0, 4)}/${published.slice(5, 7)}/${published.slice(8, 10)}/${slug}.html`;
    const broken = brokenAt.has(i) ? brokenKinds[nextBroken++ % brokenKinds.length] : undefined;
    const template = broken ? null : order[nextTemplate++];
    drafts.push({ rng, writer, headline, slug, path, published, template, broken, author: rng.pick(staff) });
  }

  const healthy = drafts.filter((d) => d.template);
  const links: LinkItem[] = healthy.map((d) => ({ title: d.headline, path: d.path }));
  const site: SiteModel = {
    name,
    host,
    tagline: siteRng.pick(TAGLINES),
    accent: siteRng.pick(ACCENTS),
    sections: [...EXTRA_SECTIONS_FRONT, ...SECTIONS, ...EXTRA_SECTIONS_BACK],
    topics: siteRng.sample(TOPICS, 7),
    trending: links.slice(0, 5),
    ads: siteRng.shuffle(ADS),
    about: `${name} is an independent, reader-supported newsroom covering local government, schools, housing, transport and the environment across the region. Our journalism is free to read because readers like you support it. If you spot an error, write to corrections@${host}.example and we will fix it.`,
    year: Number(o.latest.slice(0, 4)),
  };

  const articles = healthy.map((d, index) => buildArticle(d, index, links));
  const files = new Map<string, SiteFile>();
  const pages: PageTruth[] = [];

  files.set('/', { status: 200, contentType: HTML, body: renderHome(site, articles) });
  pages.push({
    path: '/', kind: 'home', template: null, title: name, byline: '', published: '', bodyText: '', wordCount: 0,
    description: `${name}: ${site.tagline}`, dek: '', section: '', metadata: 'full', inFeed: false, status: 200, contentType: HTML,
  });

  const byPath = new Map(articles.map((a) => [a.path, a]));
  for (const d of drafts) {
    const a = byPath.get(d.path);
    if (a) {
      const spec = TEMPLATES[a.template];
      files.set(a.path, { status: 200, contentType: HTML, body: spec.render(site, a) });
      for (const f of figuresOf(a)) files.set(f.src, { status: 200, contentType: 'image/svg+xml', body: figureSvg(f.src) });
      const bodyText = bodyTextOf(a.blocks);
      pages.push({
        path: a.path, kind: 'article', template: a.template, title: a.headline, byline: a.author.name, published: a.published,
        bodyText, wordCount: countWords(bodyText), description: a.dek, dek: spec.showsDek ? a.dek : '', section: a.section, metadata: spec.metadata,
        inFeed: spec.metadata !== 'none', status: 200, contentType: HTML,
      });
    } else {
      const file = brokenFile(d);
      files.set(d.path, file);
      pages.push({
        path: d.path, kind: 'broken', template: null, title: '', byline: '', published: '', bodyText: '', wordCount: 0,
        description: '', dek: '', section: '', metadata: 'none', inFeed: false, status: file.status, contentType: file.contentType, broken: d.broken,
      });
    }
  }

  files.set('/feed.xml', {
    status: 200,
    contentType: 'application/rss+xml; charset=utf-8',
    body: renderFeed(site, articles.filter((a) => TEMPLATES[a.template].metadata !== 'none')),
  });
  files.set('/sitemap.xml', { status: 200, contentType: 'application/xml; charset=utf-8', body: renderSitemap(['/', ...drafts.map((d) => d.path)]) });
  files.set('/robots.txt', { status: 200, contentType: 'text/plain; charset=utf-8', body: renderRobots() });

  return { name, host, seed: String(o.seed), templates: [...templates], pages, files };
}

interface Draft {
  rng: Rng;
  writer: StoryWriter;
  headline: string;
  slug: string;
  path: string;
  published: string;
  template: TemplateId | null;
  broken?: BrokenKind;
  author: Author;
}

function buildArticle(d: Draft, index: number, links: LinkItem[]): ArticleModel {
  const { rng, writer } = d;
  const template = d.template!;
  const spec = TEMPLATES[template];
  const others = links.filter((l) => l.path !== d.path);
  const related = rng.sample(others, rng.int(3, 5));
  const figure = (): Figure => ({
    src: `/media/${d.slug}.svg`,
    alt: writer.caption(),
    caption: writer.caption(),
    credit: `Photo: ${personName(rng)} / ${writer.story.siteName}`,
    width: FIGURE_WIDTH,
    height: FIGURE_HEIGHT,
  });
  const leadFigure = spec.leadFigure && rng.chance(0.8) ? figure() : undefined;
  const inlineFigure = !spec.leadFigure && rng.chance(0.7) ? figure() : undefined;

  const paragraphs = rng.int(5, 15);
  const subheads = paragraphs >= 12 ? 3 : paragraphs >= 8 ? 2 : 1;
  const h2Before = new Set(rng.sample(range(paragraphs).slice(2), subheads));
  const [quoteAfter, listAfter] = rng.sample(range(paragraphs - 1).slice(1), 2);
  const adAfter = paragraphs >= 6 ? 2 : -1;

  const blocks: BodyBlock[] = [];
  for (let p = 0; p < paragraphs; p++) {
    if (h2Before.has(p)) blocks.push({ kind: 'h2', text: writer.subhead() });
    const text = writer.paragraph(p === 0 ? rng.int(2, 3) : rng.int(2, 5), p === 0);
    blocks.push({ kind: 'p', text, link: inlineLink(rng, writer, text, related) });
    if (p === 0 && inlineFigure) blocks.push({ kind: 'figure', figure: inlineFigure });
    if (p === quoteAfter) blocks.push({ kind: 'quote', text: writer.pullQuote() });
    if (p === listAfter) {
      blocks.push({ kind: 'p', text: writer.listIntro() });
      blocks.push({ kind: 'list', items: writer.listItems(rng.int(3, 6)) });
    }
    if (p === adAfter) blocks.push({ kind: 'ad', promo: related[0] ?? { title: 'More local news', path: '/' } });
  }

  const comments: Comment[] = Array.from({ length: rng.int(3, 9) }, () => ({
    author: writer.commenterHandle(),
    at: new Date(Date.parse(d.published) + rng.int(20, 48 * 60) * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    text: writer.comment(),
    likes: rng.int(0, 48),
  })).sort((a, b) => a.at.localeCompare(b.at));

  return {
    index,
    path: d.path,
    slug: d.slug,
    template,
    headline: d.headline,
    dek: writer.dek(),
    author: d.author,
    section: writer.story.section,
    published: d.published,
    blocks,
    leadFigure,
    comments,
    related,
    tags: writer.tags(),
  };
}

/** A link on the story's subject or organisation, in about a third of paragraphs. */
function inlineLink(rng: Rng, writer: StoryWriter, text: string, related: LinkItem[]): { phrase: string; path: string } | undefined {
  if (!rng.chance(0.35) || related.length === 0) return undefined;
  const phrase = [writer.story.subject, writer.story.org].find((s) => text.includes(s));
  return phrase ? { phrase, path: rng.pick(related).path } : undefined;
}

function figuresOf(a: ArticleModel): Figure[] {
  const out = a.leadFigure ? [a.leadFigure] : [];
  for (const b of a.blocks) if (b.kind === 'figure') out.push(b.figure);
  return out;
}

function brokenFile(d: Draft): SiteFile {
  switch (d.broken) {
    case 'not-found':
      return { status: 404, contentType: HTML, body: errorPage(404, 'Page not found', 'The story you are looking for has been moved or removed.') };
    case 'server-error':
      return { status: 500, contentType: HTML, body: errorPage(500, 'Internal Server Error', 'Something went wrong on our end. Please try again later.') };
    default: {
      // Not HTML: a PDF, a JSON error document, or plain text, all with status 200.
      const variant = d.rng.int(0, 2);
      if (variant === 0) return { status: 200, contentType: 'application/pdf', body: fakePdf(d.headline) };
      if (variant === 1)
        return { status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ error: 'moved', headline: d.headline }) + '\n' };
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: `${d.headline}\n\nThis story is only available in print.\n` };
    }
  }
}

function errorPage(status: number, title: string, message: string): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${status} ${title}</title></head><body><h1>${title}</h1><p>${message}</p><p><a href="/">Go to the home page</a></p></body></html>\n`;
}

function fakePdf(title: string): Uint8Array {
  const text = `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n% ${title.replace(/[^\x20-\x7e]/g, '?')}\ntrailer << /Root 1 0 R >>\n%%EOF\n`;
  return new TextEncoder().encode(text);
}

function uniqueSlug(slug: string, used: Set<string>): string {
  let s = slug;
  for (let n = 2; used.has(s); n++) s = `${slug}-${n}`;
  used.add(s);
  return s;
}

function range(n: number): number[] {
  return Array.from({ length: Math.max(0, n) }, (_, i) => i);
}

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function validate(options: SiteOptions): Required<Omit<SiteOptions, 'name' | 'host'>> & Pick<SiteOptions, 'name' | 'host'> {
  const templates = options.templates ?? 3;
  const brokenRate = options.brokenRate ?? 0;
  const latest = options.latest ?? '2026-03-14';
  if (!Number.isInteger(options.pagesPerTemplate) || options.pagesPerTemplate < 1) throw new Error('pagesPerTemplate must be a positive integer');
  if (!Number.isInteger(templates) || templates < 1 || templates > TEMPLATE_IDS.length)
    throw new Error(`templates must be an integer from 1 to ${TEMPLATE_IDS.length}`);
  if (!(brokenRate >= 0 && brokenRate < 1)) throw new Error('brokenRate must be in [0, 1)');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(latest) || Number.isNaN(Date.parse(latest))) throw new Error('latest must be a YYYY-MM-DD date');
  return { ...options, templates, brokenRate, latest };
}
