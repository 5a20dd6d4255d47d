/**
 * The learn step, per site: decide whether the site needs (re)learning, learn its rules from its
 * newest feature documents, write the rules document (versioned, compare-and-swap), and queue its
 * pages whose article the new rules may change for extraction again (relearnFanOut).
 */
import type { StepContext } from '../step/context';
import { keys, pageIdFromFeaturesKey, pageIdFromPageKey } from '../store/keys';
import { PreconditionFailedError, putJson, storedUrl, type ListedObject, type Store, type StoredObject } from '../store/store';
import { extractCombined } from '../fallback/extract';
import { parseHtml, parseServedHtml } from '../html/parse';
import { FeatureDocumentSchema, type FeatureDocument } from '../types/feature-document';
import { EXTRACTION_VERSION } from '../types/article-document';
import { describeBadDocument, parseDocument, quarantine, readDocument, type BadDocument } from '../store/documents';
import type { LearnMessage } from '../types/messages';
import {
  DriftMarkerSchema,
  RULES_DOCUMENT_VERSION,
  RulesDocumentSchema,
  type ContentRule,
  type DriftMarker,
  type FetchPathVerdict,
  type FieldRules,
  type RulesDocument,
} from '../types/rules-document';
import { learnSiteFields } from '../fields/learn-fields';
import { DEFAULT_LEARN_OPTIONS, learnRules, repeatedTextsOf } from './learn-rules';
import { isClusteredBlock } from './vectorize';
import { SameArticles } from './same-article';
import { fetchRecordOf } from '../types/fetch-record';
import { fetchPathVerdict, type VerdictPage } from '../html/fetch-verdict';

export type LearnOutcome =
  | { readonly learned: false; readonly site: string; readonly reason: string }
  | {
      readonly learned: true;
      readonly site: string;
      readonly rules: RulesDocument;
      /** Pages queued for extraction again with the new rules. */
      readonly reapplied: number;
      /** Pages left as they are: their article is what the new rules make. */
      readonly unchanged: number;
      /** Pages left with the article older rules or the fallback made, past `relearnReextractMax` of them (relearnFanOut). */
      readonly keptOlder: number;
    };

export async function learnStep(message: LearnMessage, ctx: StepContext): Promise<LearnOutcome> {
  const { store, config, logger } = ctx;
  const site = message.site;

  const pages = renderedPages(await store.list(keys.pagePrefix(site)));

  const stored = await store.get(keys.rules(site));
  const current = stored ? await parseRules(stored, keys.rules(site), store, logger) : undefined;

  if (pages.length === 0) return { learned: false, site, reason: 'the site has no rendered pages' };
  if (!message.force) {
    if (!current && pages.length < config.learnMinPages) {
      return { learned: false, site, reason: `${pages.length} of the ${config.learnMinPages} pages needed to learn` };
    }
    if (current) {
      // Pages rendered since the last learn read the site's pages (not: pages outside learnedFrom,
      // which on a site with more than learnPages pages would be every older page, every time).
      const since = Date.parse(current.learnedAt);
      const known = new Set(current.learnedFrom);
      const freshPages = pages.filter((p) => !known.has(p.pageId) && !(p.lastModified.getTime() < since));
      const fresh = freshPages.length;
      const drift = fresh >= config.relearnAfter ? new Set<string>() : await driftedPages(site, current.rulesVersion, ctx);
      const drifted = drift.size;
      // Drift relearns once a page the rules failed on has been rendered since: from the same pages it
      // would learn the same rules, and the pages the rules failed on keep writing markers against each
      // new version. A loop: one site of a load test relearned 299 times while its failed pages waited
      // to be rendered; and with any new page enough, every sampled render of a site whose rules miss a
      // template relearned it, though the rules worked on that page.
      const freshFailed = freshPages.filter((p) => drift.has(p.pageId)).length;
      if (fresh < config.relearnAfter && (drifted < config.driftRelearnAfter || freshFailed === 0)) {
        return {
          learned: false,
          site,
          reason:
            `${fresh} new pages since rules v${current.rulesVersion} (relearning after ${config.relearnAfter}), ` +
            `${drifted} they selected nothing on (relearning after ${config.driftRelearnAfter}, with a new rendered page among them: ${freshFailed})`,
        };
      }
      if (drifted >= config.driftRelearnAfter) logger.info('rules drifted: relearning', { site, rulesVersion: current.rulesVersion, drifted });
    }
  }
  const started = new Date();

  const docs: FeatureDocument[] = [];
  // One bad file (truncated, not JSON, not a feature document) is named and quarantined: the site
  // still learns from its other pages, and the next learn no longer meets it.
  const onBad = (bad: BadDocument) => logger.warn('quarantined a bad feature document', { site, detail: describeBadDocument(bad) });
  // A page without a block of words (an empty page, a picture alone) gives the learner no evidence:
  // it is no training page and takes no place of one (the next older page does). A bad file still
  // takes its place, as before.
  // Nor is a page that holds the same article as a newer page read (same-article.ts: one article
  // submitted under two URLs), whose text would all be taken for the template's. It keeps its place:
  // reading on past copies would read and extract a site of one article's copies without bound.
  let places = 0;
  let wordless = 0;
  let copies = 0;
  const articles = new SameArticles(async (d) => {
    const snapshot = await store.get(d.snapshotKey);
    return snapshot ? extractCombined(parseHtml(snapshot.body)).text : undefined;
  });
  for (const page of pages) {
    if (places >= config.learnPages) break;
    const doc = await readDocument(store, page.key, FeatureDocumentSchema, { remove: true, onBad });
    if (doc && !hasWords(doc)) {
      wordless++;
      continue;
    }
    places++;
    if (doc && (await articles.copyOf(doc))) copies++;
    else if (doc) docs.push(doc);
  }
  if (docs.length === 0) return { learned: false, site, reason: wordless ? `no pages with words (${wordless} without)` : 'no valid feature documents' };
  // nor do they count toward the pages a first learn waits for
  const noEvidence = wordless + copies;
  if (!message.force && !current && noEvidence > 0 && pages.length - noEvidence < config.learnMinPages) {
    const why = [wordless ? `${wordless} without words` : '', copies ? `${copies} the same article as another` : ''].filter(Boolean).join(', ');
    return { learned: false, site, reason: `${pages.length - noEvidence} of the ${config.learnMinPages} pages needed to learn (${why})` };
  }

  const labels = await pageLabels(docs, store);
  // A page that is not an article teaches nothing about where the site's articles are.
  const { training, notArticles, keptAll } = articlePages(docs, labels);
  if (keptAll) logger.warn(`the not-an-article test flags ${notArticles} of the ${docs.length} training pages; learning from them all`, { site, pages: docs.length });
  const learnedRules = learnRules(training, { eps: config.dbscanEps, minPts: config.dbscanMinPts }, new Map([...labels].map(([pageId, l]) => [pageId, l.text])));
  if (learnedRules.content.selectors.length === 0) {
    logger.warn('learned no content selectors; keeping the current rules', { site, pages: training.length });
    return { learned: false, site, reason: 'no content cluster found' };
  }
  const learned = {
    ...learnedRules,
    params: {
      ...learnedRules.params,
      ...(notArticles ? { [keptAll ? 'notArticlesKept' : 'notArticlesLeftOut']: notArticles } : {}),
      ...(copies ? { duplicatesLeftOut: copies } : {}),
    },
  };

  // Where the title, byline and date are, supervised by the site's feeds and its pages' metadata.
  // Content rules do not wait on them: a failure here leaves the fields to the pages' metadata.
  const fields = await learnSiteFields(site, training, store, { logger }).catch((error: unknown) => {
    logger.error('field learning failed; rules without fields', { site, error: String(error) });
    return undefined;
  });

  // Whether these rules give the same article on the HTML as served: pages may then skip the browser.
  const fetchPath = await checkFetchPath(learned, training, store, config.fetchPathMinF1);

  const draft = { ...learned, ...(fields ? { fields } : {}) };
  const rulesVersion = (current?.rulesVersion ?? 0) + 1;
  const rules: RulesDocument = RulesDocumentSchema.parse({
    version: RULES_DOCUMENT_VERSION,
    site,
    rulesVersion,
    // when this learn read the site's pages: a page rendered after it counts as new for the next one
    learnedAt: started.toISOString(),
    // rules that extract what the current ones do keep their first version: articles made since stay as they are
    sameExtractionSince: current && !extractsDifferently(current, draft) ? sameExtractionSince(current) : rulesVersion,
    ...draft,
    fetchPath,
  });
  try {
    // Compare-and-swap: if another learn of this site wrote in between, the higher version stands.
    await putJson(store, keys.rules(site), rules, stored ? { ifMatch: stored.etag } : { ifNoneMatch: '*' });
  } catch (error) {
    if (!(error instanceof PreconditionFailedError)) throw error;
    const winner = await store.get(keys.rules(site));
    const winnerVersion = winner ? (await parseRules(winner, keys.rules(site), store, logger))?.rulesVersion ?? 0 : 0;
    if (winnerVersion >= rules.rulesVersion) {
      return { learned: false, site, reason: `a concurrent learn wrote rules v${winnerVersion} first` };
    }
    throw error; // retry: the queue redelivers and the next attempt reads the newer rules
  }

  // Extract again only the pages whose article these rules may change (relearnFanOut).
  // The site's pages are listed again now that the rules are written: a page stored since this learn
  // listed them may have been extracted with the older rules meanwhile (its apply read them before
  // the write), and a page whose article is still to come is extracted again (its apply may have read
  // them too). Pages stored from here on are applied with these rules.
  // Pages of the fetch path (docs/fetch-path.md) have their HTML as served and no feature document:
  // they are not learned from, but extracted again like the others, from that HTML.
  const listedNow = await store.list(keys.pagePrefix(site));
  const featuredPages = renderedPages(listedNow);
  const featured = new Set(featuredPages.map((p) => p.pageId));
  const fetchedPages = listedNow
    .map((o) => ({ pageId: pageIdFromPageKey(o.key, 'served.html'), lastModified: o.lastModified }))
    .filter((p): p is { pageId: string; lastModified: Date } => p.pageId !== undefined && !featured.has(p.pageId));
  const fetched = new Set(fetchedPages.map((p) => p.pageId));
  const newestFirst = [...featuredPages, ...fetchedPages].sort((a, b) => b.lastModified.getTime() - a.lastModified.getTime());
  const fanOut = await relearnFanOut(site, newestFirst, rules, ctx, message.force ? Infinity : config.relearnReextractMax);
  for (const pageId of fanOut.reextract) {
    if (!fetched.has(pageId)) {
      await ctx.queues.apply.send({ v: 1, site, pageId, reason: 'relearned' });
      continue;
    }
    // Without a URL: a render still writing its files (served.html before its feature document), whose
    // apply is sent after them and reads these rules; or a page fetched before fetch records were
    // written whose first apply has not written its article yet (for those alone the race stays).
    const url = await fetchedUrl(site, pageId, ctx.store);
    if (url) await ctx.queues.apply.send({ v: 1, site, pageId, reason: 'relearned', path: 'fetch', url });
  }
  await clearDrift(site, rules.rulesVersion, ctx);
  logger.info('learned', {
    site,
    rulesVersion: rules.rulesVersion,
    sameExtractionSince: rules.sameExtractionSince,
    pages: training.length,
    ...(notArticles && !keptAll ? { notArticlesLeftOut: notArticles } : {}),
    ...(copies ? { duplicatesLeftOut: copies } : {}),
    selectors: rules.content.selectors.length,
    reapplied: fanOut.reextract.length,
    unchanged: fanOut.unchanged,
    keptOlder: fanOut.keptOlder,
    fetchPath: fetchPath.works,
    fetchPathMinF1: fetchPath.minF1,
  });
  return { learned: true, site, rules, reapplied: fanOut.reextract.length, unchanged: fanOut.unchanged, keptOlder: fanOut.keptOlder };
}

/** The site's pages with a feature document (rendered), newest first. */
function renderedPages(listed: readonly ListedObject[]): Array<ListedObject & { pageId: string }> {
  return listed
    .map((o) => ({ ...o, pageId: pageIdFromFeaturesKey(o.key) }))
    .filter((o): o is typeof o & { pageId: string } => o.pageId !== undefined)
    .sort((a, b) => b.lastModified.getTime() - a.lastModified.getTime() || (a.key < b.key ? -1 : 1));
}

/** Whether a page has a block the learner clusters (learnRules' minWords): its evidence. */
function hasWords(doc: FeatureDocument): boolean {
  return doc.blocks.some((b) => isClusteredBlock(b, DEFAULT_LEARN_OPTIONS.minWords));
}

/** The first version of the site's rules that extracts what these do (docs/rules-document.md, `sameExtractionSince`). */
export function sameExtractionSince(rules: RulesDocument): number {
  return rules.sameExtractionSince ?? rules.rulesVersion;
}

/**
 * What apply reads of a rules document: the content rules, each template's layout and content rules, and per field its rules' element and text
 * choice, locale and UTC offset. Content, dek, header and clean selectors are sets: apply takes their
 * matches in document order (lib/html/extract-with-rules.ts), so their order changes nothing.
 * `content.boilerplate` is left out: it moves with every relearn's pages, only the fallback reads it,
 * and the fallback's articles are the first a relearn extracts again (relearnFanOut), but for those
 * flagged not an article under the same extraction: a changed boilerplate list does not reach them.
 */
function extractionPart(r: Pick<RulesDocument, 'content' | 'templates' | 'fields'>): string {
  const field = (f: FieldRules | undefined) =>
    f && { rules: f.rules.map((x) => [x.kind, x.value, x.text ?? null, x.announced ?? null]), locale: f.locale ?? null, utcOffsetMinutes: f.utcOffsetMinutes ?? null };
  const set = (selectors: readonly string[] | undefined) => [...new Set(selectors ?? [])].sort();
  const content = ({ selectors, dek, header, clean }: Pick<ContentRule, 'selectors' | 'dek' | 'header' | 'clean'>) => [set(selectors), set(dek), set(header), set(clean)];
  // a template's layout selectors choose which pages its rules serve: they are part of what it extracts
  // in any order: a relearn may find the same templates with their sizes ranked otherwise
  const templates = (r.templates ?? []).map((t) => JSON.stringify([set(t.layout), ...content(t.content)])).sort();
  return JSON.stringify([...content(r.content), templates, field(r.fields?.title), field(r.fields?.byline), field(r.fields?.published)]);
}

/**
 * Whether two rules documents can extract anything differently: their content selectors, dek, header
 * and clean selectors, their templates' layouts and content rules, or their field rules' elements, locale
 * or UTC offset differ. Scores, support, clusters and the self-check are provenance: apply does not read them.
 */
export function extractsDifferently(a: Pick<RulesDocument, 'content' | 'templates' | 'fields'>, b: Pick<RulesDocument, 'content' | 'templates' | 'fields'>): boolean {
  return extractionPart(a) !== extractionPart(b);
}

export interface FanOut {
  /** Pages to extract again with the new rules. */
  readonly reextract: string[];
  /** Pages whose article rules that extract the same as the new ones already made. */
  readonly unchanged: number;
  /** Pages whose article older rules or the fallback made, past the `limit` extracted again: kept as they are. */
  readonly keptOlder: number;
}

/**
 * The pages a relearn extracts again: those whose stored article the new rules may change. A page is
 * left as it is when its article was made by rules of version `sameExtractionSince` or later (the same
 * selectors and field rules: the same article), or is the fallback's on a page such rules selected
 * nothing on (its drift marker has such a version). Every page without an article yet (its apply may
 * be under way with the old rules) is extracted again. Of the others, at most `limit`: the fallback's
 * articles first, then those rules that extract differently made, each newest first (`pages` come
 * newest first). The rest keep their article: the fallback's, or the one rules made for them, which
 * passed the page guard then (new rules, learned from the newest pages, may not know their template
 * any more). Each relearn extracting every such page again made the apply runs grow with the site's
 * page count: on a site with a template its rules miss, every relearn extracted all of its pages again.
 */
export async function relearnFanOut(site: string, pages: readonly { pageId: string }[], rules: RulesDocument, ctx: StepContext, limit = Infinity): Promise<FanOut> {
  const since = sameExtractionSince(rules);
  const driftedUnder = new Map<string, number>();
  for (const marker of await driftMarkers(site, ctx)) driftedUnder.set(marker.pageId, Math.max(marker.rulesVersion, driftedUnder.get(marker.pageId) ?? 0));
  const reextract: string[] = [];
  const fallbackMade: string[] = [];
  const rulesMade: string[] = [];
  let unchanged = 0;
  for (const { pageId } of pages) {
    const made = await madeWith(site, pageId, ctx);
    // made by the current extraction code, and by these rules' extraction (or the fallback, where they
    // select nothing: its marker says under which rules; a page flagged not an article writes none, its
    // article's rulesVersionRead says it)
    const current =
      made !== undefined &&
      made.extraction >= EXTRACTION_VERSION &&
      ((made.method === 'rules' && made.rulesVersion !== undefined && made.rulesVersion >= since) ||
        (made.method === 'fallback' && ((driftedUnder.get(pageId) ?? 0) >= since || (made.notArticle && (made.rulesVersionRead ?? 0) >= since))));
    if (current) unchanged++;
    else if (made === undefined) reextract.push(pageId);
    else (made.method === 'rules' ? rulesMade : fallbackMade).push(pageId);
  }
  // The fallback's articles first: the pages rules had nothing for gain the most from new rules.
  const bounded = [...fallbackMade, ...rulesMade];
  reextract.push(...bounded.slice(0, limit));
  return { reextract, unchanged, keptOlder: Math.max(0, bounded.length - limit) };
}

/**
 * How the page's stored article was made (its method, the rules version that made it and the one its
 * apply read, its extraction version, whether it is flagged not an article), or undefined when it has
 * none or it is unreadable.
 */
async function madeWith(
  site: string,
  pageId: string,
  ctx: StepContext,
): Promise<{ method: string; rulesVersion?: number; rulesVersionRead?: number; extraction: number; notArticle: boolean } | undefined> {
  const obj = await ctx.store.get(keys.article(site, pageId));
  if (!obj) return undefined;
  try {
    const doc = JSON.parse(obj.body.toString('utf8')) as { method?: unknown; rulesVersion?: unknown; rulesVersionRead?: unknown; extraction?: unknown; notArticle?: unknown };
    if (typeof doc.method !== 'string') return undefined;
    const extraction = typeof doc.extraction === 'number' ? doc.extraction : 1;
    return {
      method: doc.method,
      extraction,
      notArticle: doc.notArticle === true,
      ...(typeof doc.rulesVersion === 'number' ? { rulesVersion: doc.rulesVersion } : {}),
      ...(typeof doc.rulesVersionRead === 'number' ? { rulesVersionRead: doc.rulesVersionRead } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * A fetched page's URL: its article's, else its fetch record's, which leads the served.html the
 * relearn listed, its article written or not (that apply may have read the older rules). A page
 * fetched before the records were written has its URL in its article alone.
 */
async function fetchedUrl(site: string, pageId: string, store: Store): Promise<string | undefined> {
  const fromArticle = await storedUrl(store, keys.article(site, pageId));
  if (fromArticle) return fromArticle;
  const served = await store.get(keys.served(site, pageId));
  return served ? fetchRecordOf(served.body)?.url : undefined;
}

/** Pages the site's rules of this version selected nothing on (apply's drift markers). */
async function driftedPages(site: string, rulesVersion: number, ctx: StepContext): Promise<Set<string>> {
  return new Set((await driftMarkers(site, ctx)).filter((m) => m.rulesVersion === rulesVersion).map((m) => m.pageId));
}

/**
 * The site's drift markers, `drift/<site>/<pageId>.json`; not the render requests beside them
 * (`drift/<site>/render/<v>/…`, apply's budget): a fetched page flagged not an article is sent to
 * render with no marker, and says nothing about the rules.
 */
async function driftMarkers(site: string, ctx: StepContext): Promise<DriftMarker[]> {
  const prefix = keys.driftPrefix(site);
  const markers: DriftMarker[] = [];
  for (const obj of await ctx.store.list(prefix)) {
    if (obj.key.slice(prefix.length).includes('/')) continue;
    const marker = await readDrift(obj.key, ctx);
    if (marker) markers.push(marker);
  }
  return markers;
}

/** Drop the markers of older rules versions: they said nothing about the new rules. */
async function clearDrift(site: string, rulesVersion: number, ctx: StepContext): Promise<void> {
  for (const obj of await ctx.store.list(keys.driftPrefix(site))) {
    const marker = await readDrift(obj.key, ctx);
    if (!marker || marker.rulesVersion < rulesVersion) await ctx.store.delete(obj.key);
  }
}

async function readDrift(key: string, ctx: StepContext): Promise<DriftMarker | undefined> {
  const obj = await ctx.store.get(key);
  if (!obj) return undefined;
  try {
    return DriftMarkerSchema.parse(JSON.parse(obj.body.toString('utf8')));
  } catch {
    return undefined;
  }
}

/** The stored rules; a bad rules document is named and copied to quarantine/ (this learn replaces it). */
async function parseRules(obj: StoredObject, key: string, store: Store, logger: StepContext['logger']): Promise<RulesDocument | undefined> {
  const parsed = parseDocument(obj.body, RulesDocumentSchema);
  if (parsed.ok) return parsed.value;
  const quarantineKey = await quarantine(store, key, obj.body).catch(() => undefined);
  logger.warn('the stored rules are a bad file; learning the site afresh', { detail: describeBadDocument({ key, problem: parsed.problem, quarantineKey }) });
  return undefined;
}

/**
 * The fetch-path verdict (lib/html/fetch-verdict.ts) on the training pages: each page's rendered
 * snapshot and its HTML as served (render stores it at `served.key`), parsed without a browser.
 */
async function checkFetchPath(rules: Pick<RulesDocument, 'content' | 'templates'>, docs: readonly FeatureDocument[], store: Store, minF1: number): Promise<FetchPathVerdict> {
  const pages: VerdictPage[] = [];
  for (const d of docs) {
    const snapshot = await store.get(d.snapshotKey);
    if (!snapshot) continue;
    const served = d.served ? await store.get(d.served.key) : undefined;
    pages.push({
      pageId: d.pageId,
      rendered: parseHtml(snapshot.body),
      served: served ? parseServedHtml(served.body) : undefined,
    });
  }
  return fetchPathVerdict(rules, pages, minF1, new Date());
}

/** What the single-page extractor makes of a training page: its text (the page's weak labels) and the not-an-article test's verdict. */
interface PageLabel {
  readonly text: string;
  readonly notArticle: boolean;
}

/**
 * The weak labels of the training pages (weak-labels.ts): the text the single-page extractor
 * (lib/fallback's combination, with the shipped model) keeps on each page's snapshot, and whether
 * the not-an-article test (lib/html/not-article.ts) flags the page. It runs as apply runs it on a
 * learned site's pages, the texts the pages repeat left out (`content.boilerplate`): on a login
 * page it would take the footer's paragraph about the site. A page without a snapshot has none.
 */
async function pageLabels(docs: readonly FeatureDocument[], store: Store): Promise<Map<string, PageLabel>> {
  const out = new Map<string, PageLabel>();
  const boilerplate = new Set(repeatedTextsOf(docs));
  for (const d of docs) {
    const obj = await store.get(d.snapshotKey);
    if (!obj) continue;
    const { text, notArticle } = extractCombined(parseHtml(obj.body), { boilerplate });
    out.set(d.pageId, { text, notArticle });
  }
  return out;
}

/** Fewer article pages than this, and the flagged pages are learned from too. */
const MIN_ARTICLE_PAGES = 2;

/**
 * The pages to learn from: those the not-an-article test does not flag (a home page, a section
 * front, a tag listing, a login page submitted with the site's articles: their teasers and labels
 * would join the articles' clusters), on the single-page extractor's verdict the labels carry. A
 * page without a label (no snapshot) is learned from. When fewer than `MIN_ARTICLE_PAGES` pages
 * are left, all of them (`keptAll`): the learner's evidence is what repeats across pages, and one
 * page repeats nothing, so its sidebar and footer would be taken for the site's content. A site
 * whose pages mostly look like no article (photo posts of a caption each) has no better evidence,
 * and a site of listings gets rules that take their text, which apply flags.
 */
function articlePages(docs: readonly FeatureDocument[], labels: ReadonlyMap<string, PageLabel>): { training: FeatureDocument[]; notArticles: number; keptAll: boolean } {
  const training = docs.filter((d) => !labels.get(d.pageId)?.notArticle);
  const notArticles = docs.length - training.length;
  return training.length >= Math.min(MIN_ARTICLE_PAGES, docs.length) ? { training, notArticles, keptAll: false } : { training: [...docs], notArticles, keptAll: true };
}
