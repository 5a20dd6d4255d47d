/**
 * Hand-built feature documents for the learn tests: a news site whose pages have a nav bar, an
 * article (title, byline, share bar, paragraphs in div.article-body, a subhead, a styled blockquote),
 * comments, a sidebar of related links and a footer. Each block carries its role for assertions.
 */
import type { Block, FeatureDocument, PathStep } from '../../lib/types/feature-document';

/** `div#page.wrap:1 > main:2 > p:3` → path steps (index after the colon, default 1). */
export function path(spec: string): PathStep[] {
  return spec
    .split('>')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^([a-z0-9-]+)((?:[#.][^#.:]+)*)(?::(\d+))?$/i.exec(s);
      if (!m) throw new Error(`bad step ${s}`);
      const parts = m[2].match(/[#.][^#.:]+/g) ?? [];
      const id = parts.find((p) => p.startsWith('#'))?.slice(1);
      return {
        tag: m[1],
        ...(id ? { id } : {}),
        classes: parts.filter((p) => p.startsWith('.')).map((p) => p.slice(1)),
        index: m[3] ? Number(m[3]) : 1,
      };
    });
}

export function selectorOf(steps: readonly PathStep[]): string {
  return ['body', ...steps.map((s) => s.tag + (s.id ? '#' + s.id : '') + s.classes.map((c) => '.' + c).join(''))].join(' > ');
}

const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

export interface BlockSpec {
  text: string;
  path: string | PathStep[];
  bbox?: { x: number; y: number; width: number; height: number };
  css?: Record<string, string>;
  /** The whole text is a link. */
  link?: boolean;
}

export function makeBlock(spec: BlockSpec, order = 0): Block {
  const steps = typeof spec.path === 'string' ? path(spec.path) : spec.path;
  const words = countWords(spec.text);
  return {
    order,
    text: spec.text,
    bbox: spec.bbox ?? { x: 0, y: order * 30, width: 800, height: 24 },
    css: spec.css ?? {},
    path: steps,
    selector: selectorOf(steps),
    words,
    linkWords: spec.link ? words : 0,
    chars: spec.text.length,
    linkChars: spec.link ? spec.text.length : 0,
  };
}

export interface DocSpec {
  pageId: string;
  title?: string;
  description?: string;
  blocks: Block[];
  renderedAt?: string;
  viewportWidth?: number;
}

export function makeDoc(spec: DocSpec): FeatureDocument {
  return {
    version: 1,
    pageId: spec.pageId,
    url: `https://news.example/${spec.pageId}`,
    finalUrl: `https://news.example/${spec.pageId}`,
    site: 'news.example',
    renderedAt: spec.renderedAt ?? '2025-01-01T00:00:00.000Z',
    viewport: { width: spec.viewportWidth ?? 1600, height: 1000 },
    snapshotKey: `snapshots/news.example/${spec.pageId}.html`,
    source: 'archive',
    page: {
      title: spec.title ?? '',
      ...(spec.description ? { description: spec.description } : {}),
      jsonLd: [],
      feeds: [],
    },
    bodyCss: {},
    blocks: spec.blocks.map((b, i) => ({ ...b, order: i })),
  };
}

// ---------------------------------------------------------------------------------------------
// A news site

export type Role = 'nav' | 'title' | 'dek' | 'byline' | 'share' | 'body' | 'subhead' | 'quote' | 'comments' | 'sidebar' | 'footer';

interface Topic {
  title: string;
  description: string;
  vocab: string[];
}

export const TOPICS: Topic[] = [
  {
    title: 'Experimental malaria vaccine offers strong protection in small trial',
    description: 'A new type of malaria vaccine protected volunteers against infection when given at high doses.',
    vocab: ['malaria', 'vaccine', 'parasite', 'doses', 'volunteers', 'protection', 'infection', 'mosquito', 'immune', 'trial', 'injections', 'antibodies'],
  },
  {
    title: 'Rooftop solar panels cut household electricity bills across the valley',
    description: 'Homeowners who installed rooftop solar panels report electricity bills falling by half within a year.',
    vocab: ['solar', 'panels', 'rooftop', 'electricity', 'bills', 'homeowners', 'inverter', 'grid', 'utility', 'batteries', 'sunshine', 'installers'],
  },
  {
    title: 'Chess prodigy wins national championship after dramatic final round',
    description: 'A twelve year old chess prodigy clinched the national championship with a daring queen sacrifice.',
    vocab: ['chess', 'prodigy', 'championship', 'queen', 'sacrifice', 'grandmaster', 'opening', 'endgame', 'tournament', 'rook', 'bishop', 'checkmate'],
  },
  {
    title: 'Honeybee colonies recover as farmers plant wildflower strips',
    description: 'Beekeepers say honeybee colonies are recovering on farms that planted strips of wildflowers along their fields.',
    vocab: ['honeybee', 'colonies', 'beekeepers', 'wildflower', 'pollen', 'hives', 'farmers', 'pesticides', 'nectar', 'orchards', 'pollination', 'strips'],
  },
  {
    title: 'Rail workers strike over pay as commuters face cancelled trains',
    description: 'Thousands of rail workers walked out over pay, leaving commuters facing cancelled trains and crowded buses.',
    vocab: ['rail', 'strike', 'workers', 'commuters', 'trains', 'union', 'wages', 'stations', 'timetable', 'negotiations', 'platforms', 'buses'],
  },
  {
    title: 'Deep sea expedition films glowing squid near volcanic vents',
    description: 'Scientists aboard a research ship filmed glowing squid feeding near volcanic vents two miles below the surface.',
    vocab: ['squid', 'expedition', 'vents', 'volcanic', 'submersible', 'ocean', 'bioluminescence', 'depths', 'scientists', 'seafloor', 'tentacles', 'ship'],
  },
  {
    title: 'City library reopens with robot book sorter and rooftop garden',
    description: 'The renovated central library reopened with an automated book sorting robot and a public rooftop garden.',
    vocab: ['library', 'books', 'robot', 'sorter', 'librarians', 'garden', 'readers', 'shelves', 'renovation', 'reading', 'archive', 'children'],
  },
  {
    title: 'Marathon runners battle heat as record crowds line the course',
    description: 'Record crowds cheered marathon runners who battled unusual heat along the riverside course on Sunday.',
    vocab: ['marathon', 'runners', 'heat', 'crowds', 'course', 'finish', 'water', 'miles', 'pace', 'medals', 'riverside', 'athletes'],
  },
];

const GENERAL = [
  'report', 'week', 'people', 'said', 'early', 'results', 'officials', 'local', 'expected', 'months', 'change',
  'according', 'plans', 'recent', 'year', 'group', 'public', 'several', 'small', 'large', 'major', 'later',
  'however', 'during', 'first', 'number', 'study', 'found', 'state', 'region', 'new', 'many',
];
const STOP = ['the', 'a', 'of', 'and', 'in', 'to', 'was', 'for', 'with', 'that', 'on', 'by'];

/** mulberry32 */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rand: () => number, vocab: string[], topicShare: number, length: number): string {
  const words: string[] = [];
  for (let i = 0; i < length; i++) {
    const r = rand();
    const list = r < topicShare ? vocab : r < topicShare + 0.3 ? STOP : GENERAL;
    words.push(list[Math.floor(rand() * list.length)]);
  }
  const s = words.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

function paragraph(rand: () => number, vocab: string[], sentences: number, topicShare = 0.35): string {
  return Array.from({ length: sentences }, () => sentence(rand, vocab, topicShare, 10 + Math.floor(rand() * 8))).join(' ');
}

export interface NewsPageOptions {
  /** Pages rendered without their stylesheets: no CSS differences, everything full width. */
  stylesheets?: boolean;
  paragraphs?: number;
  comments?: number;
  /** A "latest stories" box in the sidebar linking the titles of pages 0..n-1 (this one included). */
  latest?: number;
  /** A dek (p.standfirst) under the headline that restates the page's description. */
  dek?: boolean;
}

export interface NewsPage {
  doc: FeatureDocument;
  /** Role of each block, parallel to doc.blocks. */
  roles: Role[];
}

/** Page i of the site (topic i mod TOPICS.length). */
export function newsPage(i: number, options: NewsPageOptions = {}): NewsPage {
  const styled = options.stylesheets ?? true;
  const topic = TOPICS[i % TOPICS.length];
  const rand = rng(1000 + i);
  const nParagraphs = options.paragraphs ?? 6 + (i % 3);
  const nComments = options.comments ?? 3 + (i % 3);
  const specs: Array<BlockSpec & { role: Role; h: number; column: 'main' | 'side' | 'top' | 'bottom'; indent?: number }> = [];
  const add = (role: Role, column: 'main' | 'side' | 'top' | 'bottom', text: string, p: string, h: number, css: Record<string, string>, extra: Partial<BlockSpec> & { indent?: number } = {}) =>
    specs.push({ role, column, text, path: p, h, css: styled ? css : {}, ...extra });

  // nav: header.site-header > nav.menu > ul > li
  ['World', 'Business', 'Science', 'Sports', 'Culture', 'Opinion'].forEach((label, k) =>
    add('nav', 'top', label, `header.site-header:1 > nav.menu:2 > ul:1 > li:${k + 1}`, 30, { 'font-size': '14px', 'text-transform': 'uppercase' }, { link: true }),
  );
  const article = 'div#page.wrap:2 > main.content:1 > article.post:1';
  add('title', 'main', topic.title, `${article} > h1.headline:1`, 60, { 'font-size': '36px', 'font-weight': '700' });
  let position = 2;
  if (options.dek) add('dek', 'main', topic.description, `${article} > p.standfirst:${position++}`, 0, { 'font-size': '20px', color: 'rgb(60, 60, 60)' });
  add('byline', 'main', `By ${['Jane Doe', 'John Roe', 'Ana Lima'][i % 3]} | ${['March', 'April', 'May'][i % 3]} ${3 + i}`, `${article} > div.byline:${position++}`, 20, { 'font-size': '13px', color: 'rgb(120, 120, 120)' });
  add('share', 'main', 'Share this article on Facebook Twitter Email', `${article} > div.share-bar:${position++}`, 30, { 'font-size': '12px' });

  const body = `${article} > div.article-body.entry-${1000 + i}:${position}`;
  let child = 1;
  // the first paragraph restates the description, as news leads do
  add('body', 'main', topic.description + ' ' + paragraph(rand, topic.vocab, 2), `${body} > p:${child++}`, 0, { 'font-size': '18px', 'line-height': '28px', 'font-family': 'Georgia' });
  for (let k = 1; k < nParagraphs; k++) {
    // a subhead is the page's own: pages of one topic do not repeat it (a text on two pages is boilerplate)
    if (k === 2) add('subhead', 'main', `${cap(topic.vocab[k])} and ${topic.vocab[k + 3]} in week ${i + 1}`, `${body} > h2:${child++}`, 36, { 'font-size': '24px', 'font-weight': '700' });
    if (k === 4) {
      add('quote', 'main', paragraph(rand, topic.vocab, 1, 0.5), `${body} > blockquote.pull-quote:${child++} > p:1`, 0,
        { 'font-size': '22px', 'font-style': 'italic', color: 'rgb(80, 80, 80)', 'font-family': 'Georgia' }, { indent: 40 });
    }
    add('body', 'main', paragraph(rand, topic.vocab, 3 + (k % 3)), `${body} > p:${child++}`, 0, { 'font-size': '18px', 'line-height': '28px', 'font-family': 'Georgia' });
  }

  // comments below the article: they talk about the topic too
  add('comments', 'main', 'Comments', 'div#page.wrap:2 > main.content:1 > section.comments:2 > h2:1', 30, { 'font-size': '20px' });
  for (let k = 0; k < nComments; k++) {
    add('comments', 'main', paragraph(rand, topic.vocab, 1 + (k % 2), 0.15), `div#page.wrap:2 > main.content:1 > section.comments:2 > div.comment:${k + 2} > p:2`, 0, { 'font-size': '14px' });
  }

  // sidebar: links to the other articles
  for (let k = 1; k <= 5; k++) {
    add('sidebar', 'side', TOPICS[(i + k) % TOPICS.length].title, `div#page.wrap:2 > aside.sidebar:2 > div.widget:1 > ul:2 > li:${k}`, 0, { 'font-size': '15px', 'font-weight': '600' }, { link: true });
  }
  for (let k = 0; k < (options.latest ?? 0); k++) {
    add('sidebar', 'side', TOPICS[k % TOPICS.length].title, `div#page.wrap:2 > aside.sidebar:2 > div.latest:2 > ol:2 > li:${k + 1}`, 0, { 'font-size': '14px' }, { link: true });
  }
  add('footer', 'bottom', '© 2025 Example News. All rights reserved. Privacy Terms Contact', 'footer.site-footer:3 > p:1', 24, { 'font-size': '12px', color: 'rgb(200, 200, 200)' });

  // layout
  const vw = 1600;
  let topX = 100;
  let mainY = 120;
  let sideY = 120;
  const blocks: Block[] = [];
  const roles: Role[] = [];
  specs.forEach((s, order) => {
    const lines = (w: number) => Math.max(1, Math.ceil((s.text.length * 9) / w));
    let bbox: Block['bbox'];
    if (!styled) {
      // unstyled: one column, lists and blockquotes indented by the browser's 40px
      const indent = s.column === 'top' || s.column === 'side' ? 40 : (s.indent ?? 0);
      const x = 8 + indent;
      const width = vw - 16 - indent;
      const height = s.h || lines(width) * 20;
      bbox = { x, y: 0, width, height };
    } else if (s.column === 'top') {
      bbox = { x: topX, y: 20, width: 140, height: 30 };
      topX += 150;
    } else if (s.column === 'side') {
      const height = s.h || lines(400) * 22;
      bbox = { x: 1100, y: sideY, width: 400, height };
      sideY += height + 12;
    } else if (s.column === 'main') {
      const indent = s.indent ?? 0;
      const width = 900 - 2 * indent;
      const height = s.h || lines(width) * 28;
      if (s.role === 'comments' && specs[order - 1]?.role !== 'comments') mainY += 80;
      bbox = { x: 100 + indent, y: mainY, width, height };
      mainY += height + 20;
    } else {
      bbox = { x: 100, y: Math.max(mainY, sideY) + 60, width: 1400, height: s.h };
    }
    blocks.push(makeBlock({ ...s, bbox }, order));
    roles.push(s.role);
  });
  if (!styled) {
    // unstyled pages stack everything in DOM order: nav, main, sidebar, footer
    const order = ['top', 'main', 'side', 'bottom'];
    const sorted = specs.map((s, k) => k).sort((a, b) => order.indexOf(specs[a].column) - order.indexOf(specs[b].column) || a - b);
    let y = 8;
    for (const k of sorted) {
      blocks[k].bbox.y = y;
      y += blocks[k].bbox.height + 16;
    }
  }
  const doc = makeDoc({
    pageId: `page-${String(i).padStart(2, '0')}`,
    title: `${topic.title} | Example News`,
    description: topic.description,
    blocks,
    renderedAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
  });
  doc.page.ogTitle = topic.title;
  return { doc, roles };
}

function cap(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}

/** Pages 0..n-1 of the site. */
export function newsSite(n: number, options: NewsPageOptions = {}): NewsPage[] {
  return Array.from({ length: n }, (_, i) => newsPage(i, options));
}

/**
 * The news site's page i laid out by another template: the same blocks under other elements and
 * names (a blog's `section.stream > div.entry > div.entry-text` for the news `main.content >
 * article.post > div.article-body`), as a site's blog posts beside its news stories.
 */
const RENAMED: Record<string, string> = {
  page: 'blog', wrap: 'layout', content: 'stream', post: 'entry', 'article-body': 'entry-text', headline: 'entry-title',
  byline: 'entry-meta', 'share-bar': 'entry-share', 'site-header': 'masthead', menu: 'topnav', sidebar: 'rail',
  widget: 'box', 'site-footer': 'colophon', comments: 'responses', comment: 'response', 'pull-quote': 'aside-quote',
};
const RETAGGED: Record<string, string> = { main: 'section', article: 'div', header: 'div', footer: 'div', aside: 'div' };

export function blogPage(i: number): FeatureDocument {
  const { doc } = newsPage(i);
  const step = (s: PathStep): PathStep => ({
    ...s,
    tag: RETAGGED[s.tag] ?? s.tag,
    ...(s.id ? { id: RENAMED[s.id] ?? s.id } : {}),
    classes: s.classes.map((c) => RENAMED[c] ?? c.replace(/^entry-(\d+)$/, 'post-$1')),
  });
  return {
    ...doc,
    pageId: `blog-${String(i).padStart(2, '0')}`,
    blocks: doc.blocks.map((b) => {
      const path = b.path.map(step);
      return { ...b, path, selector: selectorOf(path) };
    }),
  };
}

/**
 * A news page's rendered HTML, as render stores its snapshot: its nav, headline, byline, body
 * paragraphs and subheads, comments, sidebar links and footer, each block's text where its role
 * puts it; `footer` replaces the site's one-line footer (a long disclaimer), `sidebar` is added to
 * the sidebar. Only the snapshot's readers see it (the single-page extractor, the fetch-path check,
 * field learning): the learner reads the page's blocks.
 */
export function newsSnapshot(page: NewsPage, options: { footer?: string; sidebar?: string; canonical?: string } = {}): string {
  const texts = (role: Role) => page.doc.blocks.filter((_, k) => page.roles[k] === role).map((b) => b.text);
  const bodyRoles: Role[] = ['body', 'subhead', 'quote'];
  const body = page.doc.blocks
    .map((b, k) => ({ b, role: page.roles[k] }))
    .filter(({ role }) => bodyRoles.includes(role))
    .map(({ b, role }) => (role === 'subhead' ? `<h2>${b.text}</h2>` : role === 'quote' ? `<blockquote><p>${b.text}</p></blockquote>` : `<p>${b.text}</p>`))
    .join('');
  const [title] = texts('title');
  return (
    `<!DOCTYPE html><html><head><title>${page.doc.page.title}</title>${options.canonical ? `<link rel="canonical" href="${options.canonical}">` : ''}</head><body>` +
    `<header class="site-header"><nav class="menu"><ul>${texts('nav').map((t) => `<li><a href="/${t.toLowerCase()}">${t}</a></li>`).join('')}</ul></nav></header>` +
    `<div id="page" class="wrap"><main class="content"><article class="post"><h1 class="headline">${title}</h1>` +
    `${texts('byline').map((t) => `<div class="byline">${t}</div>`).join('')}<div class="article-body">${body}</div></article>` +
    `<section class="comments">${texts('comments').map((t, k) => (k === 0 ? `<h2>${t}</h2>` : `<div class="comment"><p>${t}</p></div>`)).join('')}</section></main>` +
    `<aside class="sidebar"><div class="widget"><ul>${texts('sidebar').map((t, k) => `<li><a href="/story-${k}">${t}</a></li>`).join('')}</ul></div>${options.sidebar ?? ''}</aside></div>` +
    `<footer class="site-footer">${options.footer ?? `<p>${texts('footer').join(' ')}</p>`}</footer></body></html>`
  );
}
