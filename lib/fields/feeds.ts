/**
 * Web feeds: reading RSS 2.0, RSS 1.0 (RDF) and Atom entries into post properties (title, author,
 * date, summary, permalink: Gkotsis et al., step 1), and fetching a feed with a timeout and a size cap.
 */
import { parseDocument } from 'htmlparser2';
import { Element, type AnyNode } from 'domhandler';
import { textContent } from '../html/parse';
import { collapse } from '../text/match';

/** One entry of a feed: the properties of one post. */
export interface FeedEntry {
  readonly title?: string;
  readonly author?: string;
  /** As the feed writes it (RFC 822 in RSS, ISO 8601 in Atom). */
  readonly published?: string;
  readonly summary?: string;
  /** The post's permalink(s): `<link>`, a permalink `<guid>`, FeedBurner's `origLink`, Atom `link[rel=alternate]`. */
  readonly links: readonly string[];
}

export interface ParsedFeed {
  readonly type: 'rss' | 'atom' | 'rdf';
  readonly title?: string;
  readonly entries: readonly FeedEntry[];
}

const MAX_ENTRIES = 500;

/** Local name of an XML element (`dc:creator` → `creator`), lower case. */
function local(name: string): string {
  const i = name.indexOf(':');
  return (i >= 0 ? name.slice(i + 1) : name).toLowerCase();
}

function childElements(el: Element): Element[] {
  return el.children.filter((c): c is Element => c instanceof Element);
}

function first(el: Element, ...names: string[]): Element | undefined {
  for (const n of names) {
    const hit = childElements(el).find((c) => c.name.toLowerCase() === n || local(c.name) === n);
    if (hit) return hit;
  }
  return undefined;
}

function text(el: Element | undefined): string | undefined {
  if (!el) return undefined;
  const t = collapse(textContent(el));
  return t || undefined;
}

function findRoot(nodes: readonly AnyNode[]): Element | undefined {
  for (const n of nodes) {
    if (!(n instanceof Element)) continue;
    const name = local(n.name);
    if (name === 'rss' || name === 'feed' || name === 'rdf') return n;
  }
  return undefined;
}

/** An HTML summary as plain text (feeds escape HTML inside description/summary). */
function plain(s: string | undefined): string | undefined {
  if (!s) return undefined;
  if (!/[<&]/.test(s)) return s;
  const t = collapse(textContent(parseDocument(s, { decodeEntities: true })));
  return t || undefined;
}

function atomAuthor(entry: Element, feedRoot: Element): string | undefined {
  const names = childElements(entry)
    .filter((c) => local(c.name) === 'author')
    .map((a) => text(first(a, 'name')) ?? text(a))
    .filter((s): s is string => !!s);
  if (names.length) return names.join(', ');
  const feedAuthor = first(feedRoot, 'author');
  return feedAuthor ? (text(first(feedAuthor, 'name')) ?? text(feedAuthor)) : undefined;
}

/** Parse a feed document; undefined when it is not RSS, RDF or Atom. Never throws. */
export function parseFeed(xml: string): ParsedFeed | undefined {
  let doc;
  try {
    doc = parseDocument(xml, { xmlMode: true, decodeEntities: true });
  } catch {
    return undefined;
  }
  const root = findRoot(doc.children);
  if (!root) return undefined;
  const kind = local(root.name);
  const entries: FeedEntry[] = [];
  if (kind === 'feed') {
    for (const e of childElements(root).filter((c) => local(c.name) === 'entry').slice(0, MAX_ENTRIES)) {
      const links = childElements(e)
        .filter((c) => local(c.name) === 'link' && c.attribs.href && (!c.attribs.rel || c.attribs.rel === 'alternate'))
        .map((c) => c.attribs.href.trim());
      const orig = text(first(e, 'origlink'));
      const titleEl = first(e, 'title');
      entries.push({
        title: /html/i.test(titleEl?.attribs.type ?? '') ? plain(text(titleEl)) : text(titleEl),
        author: atomAuthor(e, root),
        published: text(first(e, 'published', 'issued', 'created', 'updated', 'date')),
        summary: plain(text(first(e, 'summary', 'content'))),
        links: [...(orig ? [orig] : []), ...links],
      });
    }
    return { type: 'atom', title: plain(text(first(root, 'title'))), entries };
  }
  // RSS 2.0 (<rss><channel><item>) and RSS 1.0 (<rdf:RDF><channel/><item>).
  const channel = first(root, 'channel');
  const items = (kind === 'rss' && channel ? childElements(channel) : childElements(root)).filter((c) => local(c.name) === 'item');
  for (const item of items.slice(0, MAX_ENTRIES)) {
    const links: string[] = [];
    const orig = text(first(item, 'origlink'));
    if (orig) links.push(orig);
    const link = text(first(item, 'link'));
    if (link) links.push(link);
    const guid = first(item, 'guid');
    const guidText = text(guid);
    if (guid && guidText && guid.attribs.ispermalink !== 'false' && /^https?:\/\//i.test(guidText)) links.push(guidText);
    if (item.attribs['rdf:about']) links.push(item.attribs['rdf:about']);
    entries.push({
      // RSS titles are text (a CDATA "<post>" stays "<post>").
      title: text(first(item, 'title')),
      author: text(first(item, 'creator')) ?? text(first(item, 'author')),
      published: text(first(item, 'pubdate', 'date', 'published', 'issued')),
      summary: plain(text(first(item, 'description', 'summary'))) ?? plain(text(first(item, 'encoded'))),
      links: [...new Set(links)],
    });
  }
  return { type: kind === 'rss' ? 'rss' : 'rdf', title: plain(text(first(channel ?? root, 'title'))), entries };
}
