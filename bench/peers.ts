/**
 * The extractors users would pick instead, each run on a page's archived HTML at the page's URL,
 * parse included in its time. Every peer returns HTML; bench/html-text.ts turns it into text the
 * same way for all. A peer whose package cannot be loaded is skipped with the reason.
 */
import { htmlToText } from './html-text';
import { loadReadability } from './readability';

export interface PeerOutput {
  /** The peer's article as HTML ('' when it found none). */
  readonly html: string;
  /** The peer's own title of the article ('' when it gave none); scored as the first line by default. */
  readonly title: string;
}

export interface Peer {
  readonly name: string;
  /** What it runs on, for the report. */
  readonly description: string;
  extract(html: string, url: string): Promise<PeerOutput>;
}

export interface PeerLoad {
  readonly peers: Peer[];
  readonly skipped: Array<{ name: string; reason: string }>;
}

export const PEER_NAMES = ['readability', 'postlight', 'extractus', 'defuddle'] as const;
export type PeerName = (typeof PEER_NAMES)[number];

async function loadReadabilityPeer(): Promise<Peer> {
  const parse = await loadReadability();
  return {
    name: 'readability',
    description: 'Mozilla Readability on jsdom',
    async extract(html, url) {
      const article = parse(html, url);
      return { html: article?.content ?? '', title: str(article?.title) };
    },
  };
}

async function loadPostlight(): Promise<Peer> {
  const mod = (await import('@postlight/parser')) as unknown as { default?: PostlightApi } & PostlightApi;
  const parser: PostlightApi = mod.default ?? mod;
  if (typeof parser.parse !== 'function') throw new Error('@postlight/parser has no parse()');
  return {
    name: 'postlight',
    description: 'Postlight Parser (cheerio), single page',
    async extract(html, url) {
      // fetchAllPages: false, or it would fetch the next pages of multi-page articles.
      const result = await parser.parse(url, { html, fetchAllPages: false, contentType: 'html' });
      if (!result || (result as { error?: unknown }).error) return { html: '', title: '' };
      return { html: str(result.content), title: str(result.title) };
    },
  };
}
interface PostlightApi {
  parse(url: string, options: { html: string; fetchAllPages?: boolean; contentType?: string }): Promise<{ content?: unknown; title?: unknown } | null>;
}

async function loadExtractus(): Promise<Peer> {
  const { extractFromHtml } = await import('@extractus/article-extractor');
  return {
    name: 'extractus',
    description: '@extractus/article-extractor extractFromHtml (Readability on linkedom)',
    async extract(html, url) {
      const article = await extractFromHtml(html, url);
      return { html: article?.content ?? '', title: str(article?.title) };
    },
  };
}

async function loadDefuddle(): Promise<Peer> {
  const { Defuddle } = await import('defuddle/node');
  const { parseHTML } = await import('linkedom');
  return {
    name: 'defuddle',
    description: 'defuddle/node on linkedom (as its CLI), no async extractors',
    async extract(html, url) {
      // The same polyfills defuddle's own CLI applies to a linkedom document (utils/linkedom-compat).
      const { document } = parseHTML(html);
      const doc = document as unknown as { styleSheets?: unknown; defaultView?: { getComputedStyle?: unknown }; URL: string };
      if (!doc.styleSheets) doc.styleSheets = [];
      if (doc.defaultView && !doc.defaultView.getComputedStyle) doc.defaultView.getComputedStyle = () => ({ display: '' });
      doc.URL = url;
      const result = await Defuddle(document as unknown as Document, url, { useAsync: false });
      return { html: result?.content ?? '', title: str(result?.title) };
    },
  };
}

const str = (x: unknown): string => (typeof x === 'string' ? x : '');

const LOADERS: Record<PeerName, () => Promise<Peer>> = {
  readability: loadReadabilityPeer,
  postlight: loadPostlight,
  extractus: loadExtractus,
  defuddle: loadDefuddle,
};

/** Load the named peers; one that cannot be imported is skipped with the reason. */
export async function loadPeers(names: readonly PeerName[] = PEER_NAMES): Promise<PeerLoad> {
  const peers: Peer[] = [];
  const skipped: PeerLoad['skipped'] = [];
  for (const name of names) {
    try {
      peers.push(await LOADERS[name]());
    } catch (error) {
      skipped.push({ name, reason: `cannot be loaded: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return { peers, skipped };
}

export interface PeerRun {
  /** The body as text (bench/html-text.ts). */
  readonly text: string;
  /** The peer's title ('' when none). */
  readonly title: string;
  readonly ms: number;
  readonly error?: string;
}

/** Run one peer on one page: time the extraction (parse included), then convert its HTML to text. */
export async function runPeer(peer: Peer, html: string, url: string): Promise<PeerRun> {
  // Peers log their own parse troubles (defuddle: invalid JSON-LD); keep the report readable.
  const saved = { log: console.log, warn: console.warn, error: console.error, info: console.info };
  console.log = console.warn = console.error = console.info = () => {};
  const started = performance.now();
  try {
    const out = await peer.extract(html, url);
    const ms = performance.now() - started;
    return { text: htmlToText(out.html), title: out.title.replace(/\s+/g, ' ').trim(), ms };
  } catch (error) {
    const ms = performance.now() - started;
    return { text: '', title: '', ms, error: error instanceof Error ? error.message : String(error) };
  } finally {
    Object.assign(console, saved);
  }
}
