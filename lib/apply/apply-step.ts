/**
 * The apply step: extract the article of one rendered page with its site's rules (or the
 * single-page fallback when the site has none, or when they select nothing on this page), fill in
 * the metadata and write the article document, unless the page's stored one was made under newer
 * rules (writeArticle). No browser: parse + extract take milliseconds.
 */
import { chooseFields, readFieldRules } from '../fields/apply-fields';
import type { StepContext } from '../step/context';
import { keys } from '../store/keys';
import { PreconditionFailedError, putJson, storedUrl } from '../store/store';
import { parseDocument } from '../store/documents';
import { ARTICLE_DOCUMENT_VERSION, ArticleDocumentSchema, EXTRACTION_VERSION, rulesVersionReadOf, type ArticleDocument } from '../types/article-document';
import { fetchRecordOf } from '../types/fetch-record';
import type { ApplyMessage } from '../types/messages';
import type { DriftMarker, RulesDocument } from '../types/rules-document';
import { clearRulesCache, loadRules } from '../step/rules';
import { NonRetryableError, describeError } from '../util/errors';
import { extractWithRules } from './extract-with-rules';
import { extractFallback, loadFallbackModel, siteBoilerplate } from './fallback';
import { guardRulesOutput } from './guard';
import { preferServed, readabilityTitle, servedSuspicion, snapshotEvidence, type SnapshotEvidence } from './served-choice';
import { extractMetadata } from '../html/metadata';
import { notArticleReason, renderedEvidence } from '../html/not-article';
import { parseHtml, parseServedHtml } from '../html/parse';
import { contentRulesFor } from '../html/template-choice';

export { clearRulesCache, loadRules };

/** First paragraph of the text as an excerpt, cut at a word boundary. */
function excerptOf(text: string): string | undefined {
  const first = text.split('\n').find((l) => l.length >= 40) ?? text.split('\n')[0];
  if (!first) return undefined;
  if (first.length <= 300) return first;
  const cut = first.slice(0, 300);
  const space = cut.lastIndexOf(' ');
  return (space > 200 ? cut.slice(0, space) : cut) + '…';
}

/**
 * Drift: the site's rules selected nothing on one of its pages (it changed its template, or this is
 * a kind of page the rules never saw). A marker per page, for the learn step to count against the
 * rules version, and a learn signal for the site; enough of them relearn it (docs/rules-document.md).
 */
async function reportDrift(site: string, pageId: string, rules: RulesDocument, ctx: StepContext): Promise<void> {
  const marker: DriftMarker = { version: 1, site, pageId, rulesVersion: rules.rulesVersion, at: new Date().toISOString() };
  await putJson(ctx.store, keys.drift(site, pageId), marker);
  await ctx.queues.learn.send(
    { v: 1, site, force: false },
    { groupId: site, deduplicationId: `${site}:drift:${rules.rulesVersion}:${pageId}` },
  );
}

/** What one apply did: the article it extracted, and whether it wrote it. */
export interface ApplyOutcome {
  /** The article this apply extracted. */
  readonly extracted: ArticleDocument;
  /** The page's article once it is done: `extracted` when written, else the stored one, made under newer rules, that stands. */
  readonly article: ArticleDocument;
  /** False when the page's stored article was made under newer rules than this apply read (writeArticle). */
  readonly written: boolean;
}

/** The apply step: the page's article once it is done (the one it wrote, or the newer rules' one it kept). */
export async function applyStep(message: ApplyMessage, ctx: StepContext): Promise<ArticleDocument> {
  return (await applyPage(message, ctx)).article;
}

/** The apply step, saying what it extracted and whether it wrote it (the AWS handler's metrics count the extraction). */
export async function applyPage(message: ApplyMessage, ctx: StepContext): Promise<ApplyOutcome> {
  const { site, pageId } = message;
  const fetched = message.path === 'fetch';
  let snapshotKey: string;
  try {
    // the fetch path has no snapshot: the HTML as served is the page
    snapshotKey = fetched ? keys.served(site, pageId) : keys.snapshot(site, pageId);
  } catch (error) {
    throw new NonRetryableError(describeError(error));
  }
  if (!/^[A-Za-z0-9_-]+$/.test(pageId)) throw new NonRetryableError(`not a valid page id: ${JSON.stringify(pageId)}`);

  // the fallback's model too (cached; read from the store at most once a minute), so its time stays out of the figure
  const [snapshot, rules, model] = await Promise.all([ctx.store.get(snapshotKey), loadRules(site, ctx), loadFallbackModel(ctx)]);
  if (!snapshot) throw new NonRetryableError(`no ${fetched ? 'served HTML' : 'snapshot'} for page ${pageId} of ${site} (${snapshotKey})`);

  const started = performance.now();
  // the HTML as served, of the fetch path: parsed into the tree a browser builds from it (implied tbody)
  const doc = fetched ? parseServedHtml(snapshot.body) : parseHtml(snapshot.body);
  // the site's field rules first: the page's metadata title is worked out only where they give none
  const read = rules?.fields ? readFieldRules(doc, rules.fields) : undefined;
  const fromRules = read?.values ?? {};
  // render's <meta name="spider:url"> is the snapshot's; the HTML as served is the page's own, and a
  // page's own spider:* metas are not render's: a fetched page's URL is its message's
  const metaOptions = fetched ? { baseUrl: message.url } : {};
  let meta = extractMetadata(doc, { ...metaOptions, title: !fromRules.title });
  const spiderUrl = fetched ? message.url : meta.spiderUrl;
  const baseUrl = spiderUrl ?? meta.canonical;

  // where the rules give way, the single-page extractor leaves out what the site shows on every page
  const boilerplate = siteBoilerplate(rules);
  // the title the fallback starts the article at is the metadata's: read above unless the field rules gave one
  const fallbackTitle = fromRules.title ? undefined : (meta.title ?? '');
  let method: ArticleDocument['method'] = 'fallback';
  let body: 'served' | undefined;
  let storeMs = 0;
  let content: { text: string; html: string; wordCount: number; header?: string; headline?: string } | undefined;
  let notArticle: boolean | undefined;
  /** Why the text served is not an article ('' when it is one): the not-article test's reason, the rules' or the fallback's. */
  let notArticleWhy: string | undefined;
  let textSource: { source: 'fallback'; reason: string } | undefined;
  let template: number | undefined;
  // the rules selected nothing, or their output failed the page guard: a drift marker, once the article is written
  let drifted = false;
  if (rules) {
    // a site of several templates: the rules of the one this page is
    const chosen = contentRulesFor(doc, rules);
    template = chosen.template;
    const extracted = extractWithRules(doc, chosen.content, { baseUrl, fieldElements: read?.lines });
    if (extracted.invalidSelectors.length) {
      ctx.logger.warn('rules hold selectors that do not compile; skipped', {
        site,
        rulesVersion: rules.rulesVersion,
        invalid: extracted.invalidSelectors.slice(0, 10),
        count: extracted.invalidSelectors.length,
      });
    }
    // the page-level guard: rules that take a small part of the page's prose, or mostly links, give way
    const guard = extracted.wordCount > 0 ? guardRulesOutput(doc, extracted, () => extractFallback(doc, { baseUrl, model, boilerplate, title: fallbackTitle })) : undefined;
    if (guard?.replace) {
      content = guard.replace.result;
      notArticle = guard.replace.result.notArticle;
      notArticleWhy = guard.replace.result.reason;
      textSource = { source: 'fallback', reason: guard.replace.reason };
      ctx.logger.warn('rules output failed the page guard; using the fallback extractor', { site, pageId, rulesVersion: rules.rulesVersion, reason: guard.replace.reason });
      drifted = true;
    } else if (extracted.wordCount > 0) {
      method = 'rules';
      content = extracted;
      // a page of the site's layout that is no article (a login form, a tag listing): flagged, as the
      // fallback flags one; it keeps its text, and writes no drift marker (the rules are not stale)
      notArticleWhy = notArticleReason(renderedEvidence(doc, extracted));
      notArticle = notArticleWhy !== '';
    } else {
      ctx.logger.warn('rules selected nothing on this page; using the fallback extractor', {
        site,
        pageId,
        rulesVersion: rules.rulesVersion,
        nodes: extracted.nodes,
      });
      drifted = true;
    }
  }
  // a page a URL of another site was redirected to (a link shortener's): the URL submitted, from
  // render's snapshot, or on the fetch path from the message (a relearn's has none: its fetch record)
  const evidence: SnapshotEvidence = fetched ? { submittedUrl: message.submittedUrl ?? fetchRecordOf(snapshot.body)?.submittedUrl } : snapshotEvidence(doc);
  if (!content) {
    const fb = extractFallback(doc, { baseUrl, model, boilerplate, title: fallbackTitle });
    content = fb;
    notArticle = fb.notArticle;
    notArticleWhy = fb.reason;
    // The page's own scripts may have taken the article away: the HTML as served, when the evidence says so.
    const suspicion = fetched ? undefined : servedSuspicion(evidence, doc, fb);
    if (suspicion) {
      const readStarted = performance.now();
      const served = await ctx.store.get(keys.served(site, pageId));
      storeMs = performance.now() - readStarted;
      if (served) {
        const servedDoc = parseHtml(served.body);
        const fromServed = extractFallback(servedDoc, { baseUrl, model, boilerplate });
        if (preferServed(fb, fromServed)) {
          ctx.logger.info('extracted from the HTML as served', { site, pageId, suspicion, renderedWords: fb.wordCount, servedWords: fromServed.wordCount });
          content = fromServed;
          notArticle = fromServed.notArticle;
          notArticleWhy = fromServed.reason;
          body = 'served';
          meta = extractMetadata(servedDoc, { baseUrl, title: !fromRules.title });
        }
      }
    }
  }
  // Title, byline and date: the site's field rules first, the page's own metadata where they give nothing.
  // a page the fallback finds is no article (a listing): its title is the page's, not a post's. One
  // the site's rules took keeps its field rules: a page of the site's layout, and a short post of
  // the site (a photo and its caption) flagged "almost no text" is still that post.
  const pageFields = notArticle && method === 'fallback';
  if (pageFields && fromRules.title) meta = extractMetadata(doc, metaOptions);
  let fields = chooseFields(pageFields ? {} : fromRules, meta);
  // The fallback's page: Readability's title (from the render) where the page's own title evidence is weak.
  if (method === 'fallback' && fields.sources.title !== 'rules' && !body) {
    const better = readabilityTitle(doc, fields.values.title, evidence.readabilityTitle);
    if (better) fields = { values: { ...fields.values, title: better }, sources: { ...fields.sources, title: 'metadata' } };
  }
  // The fallback's page whose metadata title is not the bare headline: the headline as its article
  // shows it, a line that shows the title without the site's or section's names ("Cricket: Windies
  // seal historic win | Cricket | Guardian Unlimited Sport" shown as "Windies seal historic win"),
  // or the heading it opens with where no line shows the title (the site's: "The Sports Network").
  const headline = method === 'fallback' && !pageFields && fields.sources.title !== 'rules' ? content.headline : undefined;
  if (headline && fields.values.title === meta.title) {
    fields = { values: { ...fields.values, title: headline }, sources: { ...fields.sources, title: 'metadata' } };
  }
  const elapsedMs = performance.now() - started - storeMs;

  const url = spiderUrl ?? message.url ?? (await storedUrl(ctx.store, keys.features(site, pageId)));
  if (!url) throw new NonRetryableError(`page ${pageId} of ${site} has no URL: no spider:url in its snapshot, no feature document`);

  const article: ArticleDocument = ArticleDocumentSchema.parse({
    version: ARTICLE_DOCUMENT_VERSION,
    pageId,
    url,
    // a page that a URL of another site was redirected to (a link shortener's): the URL submitted too (above)
    ...(evidence.submittedUrl ? { submittedUrl: evidence.submittedUrl } : {}),
    site,
    ...fields.values,
    ...(meta.lang ? { lang: meta.lang } : {}),
    ...((meta.excerpt ?? excerptOf(content.text)) ? { excerpt: meta.excerpt ?? excerptOf(content.text) } : {}),
    ...(meta.siteName ? { siteName: meta.siteName } : {}),
    ...(meta.image ? { image: meta.image } : {}),
    ...(content.header ? { header: content.header } : {}),
    text: content.text,
    html: content.html,
    wordCount: content.wordCount,
    method,
    extraction: EXTRACTION_VERSION,
    path: fetched ? 'fetch' : 'render',
    ...(method === 'rules' && rules ? { rulesVersion: rules.rulesVersion, ...(template !== undefined ? { template } : {}) } : {}),
    ...(rules ? { rulesVersionRead: rules.rulesVersion } : {}),
    ...(notArticle ? { notArticle: true } : {}),
    extractedAt: new Date().toISOString(),
    // when the page was stored (render's snapshot, fetch's HTML as served): against a redirect record at its place (lib/store/redirects.ts)
    pageStoredAt: snapshot.lastModified.toISOString(),
    elapsedMs: Math.round(elapsedMs * 100) / 100,
    ...(Object.keys(fields.sources).length || body || textSource
      ? { sources: { ...fields.sources, ...(body ? { body } : {}), ...(textSource ? { text: textSource } : {}) } }
      : {}),
  });
  const write = await writeArticle(article, ctx);
  if (write.kept) {
    // what its older rules made, or selected nothing on, is said by nobody: no drift marker, no render
    ctx.logger.info('not written: the stored article was made under newer rules', {
      site,
      pageId,
      rulesVersionRead: article.rulesVersionRead,
      storedRulesVersionRead: rulesVersionReadOf(write.kept),
      method,
      reason: message.reason,
    });
    return { extracted: article, article: write.kept, written: false };
  }
  if (drifted && rules) {
    if (article.notArticle) {
      // A page that is no article (a login page, a tag listing, a home page) says nothing about where
      // the site's articles are: the rules are not stale, and a relearn (learn leaves such pages out)
      // would learn what it has. No marker, as for a flagged page the rules took.
      ctx.logger.info('rules gave way on a page that is not an article; no drift marker', { site, pageId, rulesVersion: rules.rulesVersion, path: article.path, notArticleReason: notArticleWhy });
    } else {
      await reportDrift(site, pageId, rules, ctx);
    }
    // The fetch path: the rules did not give this page's article on its HTML as served. Flagged there,
    // it is rendered all the same (within the budget): a page flagged off its HTML as served is not
    // flagged off the page (a shell its scripts fill in, a challenge page served to a client that is
    // not a browser, read as almost no text). Its render's apply decides, and writes no marker either
    // if the rendered page is flagged too.
    if (fetched) await renderFailedFetch(message, rules, ctx);
  } else if (rules?.fetchPath?.works && !fetched && method === 'rules' && !article.notArticle) {
    await renderedWhatFetchMissed(site, pageId, rules, ctx);
  }
  const previous = write.replaced;
  if (previous && lostMostOfIt(previous, article)) {
    ctx.logger.warn('article replaced by a much shorter one', {
      site,
      pageId,
      url,
      wordsBefore: previous.wordCount,
      wordsAfter: article.wordCount,
      methodBefore: previous.method,
      method,
      ...(article.notArticle ? { notArticle: true } : {}),
      reason: message.reason,
    });
  }
  ctx.logger.info('applied', {
    site,
    pageId,
    method,
    path: article.path,
    rulesVersion: article.rulesVersion,
    template: article.template,
    words: article.wordCount,
    notArticle: article.notArticle,
    ...(notArticleWhy ? { notArticleReason: notArticleWhy } : {}),
    ms: article.elapsedMs,
    reason: message.reason,
  });
  return { extracted: article, article, written: true };
}

/** A fetched page its rules did not give the article of, once its fallback article is written: sent to render, within a budget. */
async function renderFailedFetch(message: ApplyMessage, rules: RulesDocument, ctx: StepContext): Promise<void> {
  const { site, pageId } = message;
  // The rules did not give this page's article on its HTML as served: the fallback's article stands.
  // The relearn its drift marker (written just before, unless its article is flagged not an article)
  // counts toward learns from rendered pages, so the
  // first SPIDER_DRIFT_RELEARN_AFTER such pages under these rules are rendered (their render's
  // article replaces this one); the others are not, as their render would teach the relearn nothing
  // more: it extracts them again from their HTML as served (a fallback's article always is,
  // relearnFanOut). The site's other pages go on being fetched (lib/step/route.ts). Only on the
  // page's first apply: a relearn extracting it again (reason "relearned") after it was rendered
  // would render it again, that render would count as a new page for the next relearn, whose
  // extraction would render it again: in a 20,000-URL load test, each of the last renders made a
  // relearn and about 37 apply runs. The budget counts the pages sent to render under these rules (a
  // render request beside the marker, keyed by the rules' version: a relearn removes those of older
  // ones with the markers), not the markers: the relearn's own extractions of pages its rules fail
  // on write markers and are not rendered, and counted they used up the budget, so a template the
  // relearn still missed was never rendered again but by the render sample. A retried apply that
  // took a place already (its request stands) keeps it.
  const firstApply = message.reason === 'rendered';
  if (message.url && firstApply) {
    const requestKey = keys.driftRender(site, rules.rulesVersion, pageId);
    const requests = await ctx.store.list(keys.driftRenderPrefix(site, rules.rulesVersion));
    const mine = requests.some((r) => r.key === requestKey);
    if (mine || requests.length < ctx.config.driftRelearnAfter) {
      const request: DriftMarker = { version: 1, site, pageId, rulesVersion: rules.rulesVersion, at: new Date().toISOString() };
      if (!mine) await putJson(ctx.store, requestKey, request);
      // a short link's page (fetched through its redirect): the short link, whose render files the page
      // here again with its redirect record and the article's submittedUrl, which the landing URL's would not
      await ctx.queues.render.send({ v: 1, url: message.submittedUrl ?? message.url, submittedAt: new Date().toISOString(), path: 'render' });
      ctx.logger.info('fetch path: the rules failed on the HTML as served; the page goes to render', { site, pageId });
    }
  }
}

/**
 * The render of a page the fetch path sent to render (its request under these rules stands), whose
 * rules gave its article: the HTML as served lacked what the browser shows. Flagged there (a shell
 * its scripts fill in, read as almost no text), the fetched page wrote no drift marker; this is it.
 * Without it, a site that moved its articles into the browser would go on being fetched, its pages
 * past the render budget kept as their shells' flagged articles, until the relearn its new rendered
 * pages bring (SPIDER_RELEARN_AFTER); with it, the budget's renders bring the relearn that checks the
 * fetch path again, as when the rules fail there. A fetched page the rules failed on wrote its
 * marker already: written again, it is the same marker and the same learn signal.
 */
async function renderedWhatFetchMissed(site: string, pageId: string, rules: RulesDocument, ctx: StepContext): Promise<void> {
  if (!(await ctx.store.get(keys.driftRender(site, rules.rulesVersion, pageId)))) return;
  ctx.logger.info('fetch path: the render of a page its HTML as served failed on gives the article; drift marker', { site, pageId, rulesVersion: rules.rulesVersion });
  await reportDrift(site, pageId, rules, ctx);
}

/** Attempts at the article's compare-and-swap before the apply fails (and the queue redelivers it). */
const WRITE_ATTEMPTS = 5;

/**
 * Writes the page's article, compare-and-swap: unless the stored one was made under newer rules than
 * this apply read (a relearn wrote them and sent the page to apply again while this apply, which read
 * the older ones, was under way; its apply may have written first). Equal versions: this one replaces
 * it (the page rendered again under the same rules). An apply that read no rules counts as version 0.
 * A stored article's version freezes the page only while the site's rules are of that version or newer:
 * rules removed, or learned afresh from version 1 after a bad rules file, leave it to any apply. Another
 * write between the read and the put: read again and decide again. Returns the stored article it kept
 * (nothing written), or the one it replaced.
 */
async function writeArticle(article: ArticleDocument, ctx: StepContext): Promise<{ kept?: ArticleDocument; replaced?: ArticleDocument }> {
  const key = keys.article(article.site, article.pageId);
  const read = rulesVersionReadOf(article) ?? 0;
  for (let attempt = 1; ; attempt++) {
    const stored = await ctx.store.get(key);
    const parsed = stored ? parseDocument(stored.body, ArticleDocumentSchema) : undefined;
    const previous = parsed?.ok ? parsed.value : undefined;
    const theirs = previous ? (rulesVersionReadOf(previous) ?? 0) : 0;
    if (previous && theirs > read && ((await loadRules(article.site, ctx))?.rulesVersion ?? 0) >= theirs) return { kept: previous };
    try {
      await putJson(ctx.store, key, article, stored ? { ifMatch: stored.etag } : { ifNoneMatch: '*' });
      return { replaced: previous };
    } catch (error) {
      if (!(error instanceof PreconditionFailedError) || attempt >= WRITE_ATTEMPTS) throw error;
    }
  }
}

/** Fewest words an article needs before losing most of them on a re-extraction is worth a warning. */
const REPLACED_MIN_WORDS = 50;

/**
 * A new extraction that keeps less than half of an article's words (or finds no article) is more
 * likely a broken page (a truncated snapshot, an error page, rules that no longer fit) than an
 * edited story: the user is warned (issue 18, item 7).
 */
export function lostMostOfIt(before: Pick<ArticleDocument, 'wordCount' | 'notArticle'>, after: Pick<ArticleDocument, 'wordCount' | 'notArticle'>): boolean {
  if (before.notArticle || before.wordCount < REPLACED_MIN_WORDS) return false;
  return Boolean(after.notArticle) || after.wordCount * 2 < before.wordCount;
}
