/**
 * The article's header: what a page shows between its headline and its body. A dek (standfirst),
 * the byline and dateline ("Posted by timothy on Tuesday July 24, @11:25AM"), the lead picture's
 * caption. The clusters the body scores by its similarity to the title rarely hold these: they are
 * short, and a byline shares no word with the headline. People marking an article's text take them
 * (the datasets' gold has them on most pages), and a hand-written extractor names them.
 *
 * Learned from the pages as the body is: on each training page, the block showing the page's title
 * (a value of its metadata or `<title>`, a site name cut off) and the first chosen block bound the
 * header; a kind of block (its tag path with ids and classes) found there on at least half of the
 * pages whose headline is of the same kind (a site may have several templates), whose text differs
 * from page to page (a share bar or "Advertisement" does not), is the header's. Their selectors are built as the
 * body's are, consolidated and self-checked against every other block (the body's included), and
 * kept apart in the rules (`content.header`): apply gives the header as its own part of the
 * article, so the body's text stays the body.
 *
 * One header kind is the article's own text: the dek (standfirst), the publisher's summary of the
 * article shown under its headline. A header kind whose text restates the page's description (its
 * metadata's summary of itself) on at least half of its pages that have one is the dek; it is kept as
 * `content.dek`, and apply puts it at the head of the body.
 */
import type { FeatureDocument } from '../types/feature-document';
import { descriptionValues, sharedDescriptions, titleValues } from '../fields/sources';
import { normalizeText, headlineVariants, restates, saysTitle } from '../text/match';
import { namedPath } from './consolidate';
import { PageTexts } from './repeated-texts';

export interface HeaderOptions {
  /** Longest header block, in words. */
  readonly maxWords: number;
  /** Share of the pages with a headline of the same kind (a template) on which a kind of block must be in the header. */
  readonly minPageShare: number;
  /** Longest header block, in words, that may be mostly links (a byline). */
  readonly maxLinkedWords: number;
  /** Share of a header kind's pages with a description on which its text must restate it, for the kind to be the dek. */
  readonly minDekShare: number;
}

export const DEFAULT_HEADER_OPTIONS: HeaderOptions = { maxWords: 60, minPageShare: 0.5, maxLinkedWords: 8, minDekShare: 0.5 };

export interface HeaderChoice {
  /** Per document, per block: a header block (never one of the body's chosen blocks, nor a dek). */
  readonly header: boolean[][];
  /** The header kinds added (paths of tags, ids and classes), the dek's left out. */
  readonly kinds: string[];
  /** Per document, per block: a block of the dek, the article's summary under its headline. */
  readonly dek: boolean[][];
  /** The header kinds that are the dek. */
  readonly dekKinds: string[];
  /** Pages on which a headline was found before the body. */
  readonly pagesWithHeadline: number;
}

/** Whether a block's text shows one of the titles: a variant of it, or one followed by a count ("Headline 211"). */
function showsTitle(text: string, variants: ReadonlySet<string>): boolean {
  const n = normalizeText(text);
  if (!n) return false;
  if (variants.has(n)) return true;
  const m = /^(.*\S)\s+\d{1,6}$/.exec(n);
  return !!m && variants.has(m[1]);
}

/** Whether the block or its parent has an id or a class (the site-stable ones the learner keeps). */
function named(path: FeatureDocument['blocks'][number]['path']): boolean {
  return path.slice(-2).some((step) => !!step.id || step.classes.length > 0);
}

export function chooseHeaderBlocks(
  docs: readonly FeatureDocument[],
  chosen: readonly (readonly boolean[])[],
  options: HeaderOptions = DEFAULT_HEADER_OPTIONS,
): HeaderChoice {
  // per page: the header blocks (index, kind, text)
  const headers: Array<Array<{ block: number; kind: string; text: string }>> = [];
  // the headline's kind per page: the template, for a site of several
  const headlineKind: Array<string | undefined> = [];
  let pagesWithHeadline = 0;
  docs.forEach((doc, d) => {
    const mask = chosen[d] ?? [];
    const order = doc.blocks.map((_, i) => i).sort((a, b) => doc.blocks[a].order - doc.blocks[b].order);
    const firstChosen = order.findIndex((i) => mask[i]);
    if (firstChosen <= 0) return headers.push([]);
    const variants = new Set(titleValues(doc.page).flatMap(headlineVariants));
    let headline = -1;
    for (let k = firstChosen - 1; k >= 0; k--) {
      if (showsTitle(doc.blocks[order[k]].text, variants)) {
        headline = k;
        break;
      }
    }
    if (headline < 0) return headers.push([]);
    pagesWithHeadline++;
    headlineKind[d] = namedPath(doc.blocks[order[headline]].path);
    const found: Array<{ block: number; kind: string; text: string }> = [];
    for (let k = headline + 1; k < firstChosen; k++) {
      const b = doc.blocks[order[k]];
      if (b.words === 0 || b.words > options.maxWords) continue;
      // a byline may be all link ("By <a>Jane Doe</a>"); a longer line of links is tags or teasers
      if (b.words > options.maxLinkedWords && b.linkWords > b.words / 2) continue;
      // a kind must be named: a bare `div > div` on a site of several templates matches anything
      if (!named(b.path)) continue;
      found.push({ block: order[k], kind: namedPath(b.path), text: normalizeText(b.text) });
    }
    headers.push(found);
  });

  // a header block's text is its page's own: one found on another page is a share bar or a label
  const candidates = new Set(headers.flatMap((found, d) => found.map((h) => `${d}:${h.block}`)));
  const texts = new PageTexts(docs, (d, block) => candidates.has(`${d}:${block}`));
  const own = headers.map((found) => found.filter((h) => !texts.repeated(h.text)));

  // kinds in the header on enough pages, and not more often elsewhere on those pages (a list of
  // teasers with their dates), nor of the body's own kind (the body's selectors take those)
  const byKind = new Map<string, { pages: Set<number>; blocks: number; listed: number }>();
  own.forEach((found, d) => {
    const perPage = new Map<string, number>();
    for (const h of found) perPage.set(h.kind, (perPage.get(h.kind) ?? 0) + 1);
    for (const h of found) {
      let k = byKind.get(h.kind);
      if (!k) byKind.set(h.kind, (k = { pages: new Set(), blocks: 0, listed: 0 }));
      if (!k.pages.has(d) && perPage.get(h.kind)! > 1) k.listed++;
      k.pages.add(d);
      k.blocks++;
    }
  });
  const kinds: string[] = [];
  // pages per headline kind: a kind must be in the header of enough of its template's pages
  const templatePages = new Map<string, number>();
  for (const h of headlineKind) if (h !== undefined) templatePages.set(h, (templatePages.get(h) ?? 0) + 1);
  const enough = (pages: ReadonlySet<number>) => {
    const perTemplate = new Map<string, number>();
    for (const d of pages) perTemplate.set(headlineKind[d]!, (perTemplate.get(headlineKind[d]!) ?? 0) + 1);
    return [...perTemplate].some(([h, n]) => n >= 2 && n >= options.minPageShare * templatePages.get(h)!);
  };
  for (const [kind, k] of byKind) {
    if (!enough(k.pages)) continue;
    // a dek, a byline, a dateline show once: a kind repeated in the header of most of its pages is a list (related stories, tags)
    if (k.listed * 2 > k.pages.size) continue;
    let elsewhere = 0;
    let body = false;
    for (const d of k.pages) {
      docs[d].blocks.forEach((b, i) => {
        if (namedPath(b.path) !== kind) return;
        if (chosen[d]?.[i]) body = true;
        else if (!headers[d].some((h) => h.block === i)) elsewhere++;
      });
    }
    if (body || elsewhere > k.blocks) continue;
    kinds.push(kind);
  }
  // the dek: a kind whose text restates the page's own summary of itself, on enough of its pages that
  // have one; a description several pages share is the site's tagline, one that says little more than the title is the headline's
  const shared = sharedDescriptions(docs.map((doc) => doc.page));
  const descriptions = docs.map((doc) =>
    descriptionValues(doc.page).filter((d) => !shared.has(normalizeText(d)) && !titleValues(doc.page).some((t) => saysTitle(d, t))),
  );
  const dekKinds = kinds.filter((kind) => {
    let described = 0;
    let restated = 0;
    for (const [d, found] of own.entries()) {
      const texts = found.filter((h) => h.kind === kind).map((h) => h.text);
      if (!texts.length || !descriptions[d].length) continue;
      described++;
      if (texts.some((t) => descriptions[d].some((summary) => restates(t, summary)))) restated++;
    }
    return restated >= 2 && restated >= options.minDekShare * described;
  });
  const mask = (keep: ReadonlySet<string>) =>
    own.map((found, d) => {
      const out = docs[d].blocks.map(() => false);
      for (const h of found) if (keep.has(h.kind)) out[h.block] = true;
      return out;
    });
  const headerKinds = kinds.filter((k) => !dekKinds.includes(k));
  return { header: mask(new Set(headerKinds)), kinds: headerKinds, dek: mask(new Set(dekKinds)), dekKinds, pagesWithHeadline };
}
