/**
 * `spider rules <site> --report out.html`: one static HTML page that shows what the learner chose for
 * a site. For each of a few of its learned pages, a picture of the stored page drawn in Chromium
 * (picture.ts) with every element the rules take boxed (marks.ts): the body, the header, the title,
 * byline and date, and the parts cleaned out, each in its colour. Then the clusters with their
 * scores, samples, and whether and why chosen, the self-check, the field rules, and the rules
 * document as text: all read from the rules document learn wrote (docs/rules-document.md), nothing
 * scored again. The pictures are embedded as data: URIs, so the page opens from disk with no server.
 */
import type { Browser } from 'puppeteer-core';
import { escapeAttr, escapeText } from '../html/content';
import { readDocument } from '../store/documents';
import { keys } from '../store/keys';
import { getText, type Store } from '../store/store';
import { FeatureDocumentSchema } from '../types/feature-document';
import type { FieldRules, RulesDocument, TemplateRule } from '../types/rules-document';
import { BOX_KINDS, markPage, type BoxKind, type Mark, type PageMarks } from './marks';
import { drawPage, launchReportBrowser, type Picture, type ReportBrowserOptions } from './picture';

export interface ReportOptions extends ReportBrowserOptions {
  /** Learned pages to draw (default 1): each next one the page that shows the most rules not shown yet (ties: the newer). */
  readonly pages?: number;
  /** A running browser to draw in (tests reuse one); else one is launched and closed. */
  readonly browser?: Browser;
  /** The pictures stop this far down each page (CSS pixels; default 6,000). */
  readonly maxHeight?: number;
  /**
   * Stops the report: the browser it launched is closed at once (the page being drawn fails) and the
   * build rejects with the signal's reason; a browser given is left open, the stop taken between pages.
   */
  readonly signal?: AbortSignal;
}

export interface ReportPage {
  readonly pageId: string;
  readonly url: string;
  readonly picture: Picture;
  readonly invalidSelectors: readonly string[];
}

export interface SiteReport {
  readonly html: string;
  readonly pages: readonly ReportPage[];
}

/** Colour and meaning of each kind of box, for the boxes and the legend. */
export const BOX_STYLES: Record<BoxKind, { readonly colour: string; readonly label: string }> = {
  body: { colour: '#1a9850', label: "body: the content selectors' elements (outermost matches), the dek's before them, and prose written bare between them" },
  header: { colour: '#2166ac', label: 'header: byline and dateline line, lead caption' },
  clean: { colour: '#d73027', label: 'cleaned out of the body or header (clean selectors)' },
  title: { colour: '#762a83', label: "title: the title's field rule" },
  byline: { colour: '#e08214', label: "byline: the byline's field rule" },
  published: { colour: '#01665e', label: "published: the date's field rule" },
};

export async function buildSiteReport(store: Store, rules: RulesDocument, options: ReportOptions = {}): Promise<SiteReport> {
  const wanted = options.pages ?? 1;
  const candidates: Candidate[] = [];
  for (const pageId of rules.learnedFrom) {
    const features = await readDocument(store, keys.features(rules.site, pageId), FeatureDocumentSchema);
    const snapshot = features && (await getText(store, features.snapshotKey));
    if (!features || !snapshot) continue;
    candidates.push({ pageId, url: features.url, finalUrl: features.finalUrl, viewport: features.viewport, snapshot, ...markPage(snapshot, rules) });
  }
  const { signal } = options;
  signal?.throwIfAborted();
  const browser = options.browser ?? (await launchReportBrowser({ handleSignals: options.handleSignals }));
  const closeOnStop = () => void browser.close().catch(() => undefined);
  if (!options.browser) signal?.addEventListener('abort', closeOnStop, { once: true });
  const pages: ReportPage[] = [];
  try {
    for (const c of pickPages(candidates, wanted)) {
      signal?.throwIfAborted();
      const picture = await drawPage(browser, { url: c.finalUrl, snapshot: c.snapshot, viewport: c.viewport, marks: c.marks, maxHeight: options.maxHeight }).catch((error: unknown) => {
        signal?.throwIfAborted(); // the stop, not the browser it closed
        throw error;
      });
      pages.push({ pageId: c.pageId, url: c.url, picture, invalidSelectors: c.invalidSelectors });
    }
    signal?.throwIfAborted();
  } finally {
    signal?.removeEventListener('abort', closeOnStop);
    if (!options.browser) await browser.close().catch(() => undefined);
  }
  return { html: reportHtml(rules, pages), pages };
}

interface Candidate extends PageMarks {
  readonly pageId: string;
  readonly url: string;
  readonly finalUrl: string;
  readonly viewport: { readonly width: number; readonly height: number };
  readonly snapshot: string;
}

/**
 * The pages to draw: each next one the page that shows the most
 * rules (selectors that take something there) not shown yet, the newer of a tie: on a site of several templates, one
 * page of each comes before a second of any.
 */
export function pickPages<T extends PageMarks>(candidates: readonly T[], wanted: number): T[] {
  const shown = new Set<string>();
  const left = [...candidates];
  const picked: T[] = [];
  while (picked.length < wanted && left.length > 0) {
    let best = 0;
    let most = -1;
    left.forEach((c, i) => {
      const fresh = new Set(c.marks.filter(showsRule).map((m) => `${m.kind} ${m.rule}`).filter((r) => !shown.has(r))).size;
      if (fresh > most) [best, most] = [i, fresh];
    });
    const [page] = left.splice(best, 1);
    for (const m of page.marks.filter(showsRule)) shown.add(`${m.kind} ${m.rule}`);
    picked.push(page);
  }
  return picked;
}

/** A mark that shows a rule of the document (bare prose is taken by none). */
const showsRule = (m: Mark) => m.until === undefined;

const esc = escapeText;
const num = (n: number, digits = 3) => (Number.isInteger(n) ? String(n) : n.toFixed(digits));
const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(4)}%`;

export function reportHtml(rules: RulesDocument, pages: readonly ReportPage[]): string {
  const kindCss = BOX_KINDS.map((k) => {
    const c = BOX_STYLES[k].colour;
    const fill = k === 'clean' ? `repeating-linear-gradient(45deg, ${c}55 0 6px, transparent 6px 12px)` : `${c}1f`;
    return `.box.${k} { border-color: ${c}; background: ${fill}; } .swatch.${k} { border-color: ${c}; background: ${c}33; }`;
  }).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="generator" content="spider rules --report">
<title>spider: what was learned for ${esc(rules.site)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; } h3 { font-size: 15px; margin: 16px 0 6px; }
table { border-collapse: collapse; margin: 8px 0; } td, th { border: 1px solid #ccc; padding: 3px 6px; vertical-align: top; text-align: left; }
th { background: #f3f3f3; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.chosen td { background: #eaf6ee; }
code, pre { font: 12px/1.4 ui-monospace, monospace; } pre { background: #f7f7f7; padding: 10px; overflow: auto; max-height: 600px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 8px 0; }
.swatch { display: inline-block; width: 14px; height: 14px; border: 2px solid; vertical-align: -3px; margin-right: 4px; }
.shot { position: relative; max-width: 100%; border: 1px solid #999; margin: 8px 0; }
.shot img { display: block; width: 100%; height: auto; }
.box { position: absolute; box-sizing: border-box; border: 2px solid; }
.box.clean { border-style: dashed; }
.box .tag { position: absolute; left: -2px; top: -16px; font: 10px/14px system-ui, sans-serif; color: #fff; padding: 0 3px; white-space: nowrap; }
${BOX_KINDS.map((k) => `.box.${k} .tag { background: ${BOX_STYLES[k].colour}; }`).join('\n')}
${kindCss}
.muted { color: #666; }
</style></head>
<body>
<h1>What spider learned for ${esc(rules.site)}</h1>
<p class="muted">rules version ${rules.rulesVersion}${rules.sameExtractionSince && rules.sameExtractionSince !== rules.rulesVersion ? ` (extracts as version ${rules.sameExtractionSince} did)` : ''}, learned ${esc(rules.learnedAt)} from ${rules.learnedFrom.length} page(s).
Each picture is the stored snapshot drawn offline in Chromium: its scripts do not run and nothing is loaded from elsewhere (stylesheets and images from other URLs are missing).</p>
<div class="legend">${BOX_KINDS.map((k) => `<span><span class="swatch ${k}"></span>${esc(BOX_STYLES[k].label)}</span>`).join('')}</div>
${pages.length ? pages.map(pageSection).join('\n') : '<p>No learned page of this site has a stored snapshot to draw.</p>'}
${clustersSection(rules)}
${selfCheckSection(rules)}
${fieldsSection(rules)}
<h2 id="rules">The rules</h2>
<h3>Content${rules.templates?.length ? ' (learned from every page: for a page of none of the templates below)' : ''}</h3>
${selectorList('content selectors (the body)', rules.content.selectors)}
${selectorList('dek selectors (the head of the body)', rules.content.dek ?? [])}
${selectorList('header selectors', rules.content.header ?? [])}
${selectorList('clean selectors', rules.content.clean)}
${(rules.templates ?? []).map(templateSection).join('\n')}
<details><summary>The rules document (rules/${esc(rules.site)}.json)</summary><pre>${esc(JSON.stringify(rules, null, 2))}</pre></details>
</body></html>
`;
}

function pageSection(page: ReportPage, i: number): string {
  const { picture: pic } = page;
  const counts = BOX_KINDS.map((k) => [k, pic.boxes.filter((b) => b.kind === k).length] as const).filter(([, n]) => n > 0);
  const boxes = BOX_KINDS.flatMap((k) => pic.boxes.filter((b) => b.kind === k)).map((b) => {
    const style = `left: ${pct(b.x, pic.width)}; top: ${pct(b.y, pic.height)}; width: ${pct(b.width, pic.width)}; height: ${pct(Math.min(b.height, pic.height - b.y), pic.height)}`;
    const tag = b.kind === 'body' ? '' : `<span class="tag">${esc(b.kind)}</span>`;
    return `<div class="box ${b.kind}" data-kind="${b.kind}" style="${style}" title="${escapeAttr(`${b.kind}: ${b.rule}\n${b.text}`)}">${tag}</div>`;
  });
  const cut = pic.pageHeight > pic.height ? ` The picture stops at ${pic.height} of the page's ${Math.round(pic.pageHeight)} pixels.` : '';
  const unseen = pic.unseen.length ? ` Not in the picture: ${pic.unseen.map((m) => `${esc(m.kind)} “${esc(m.text.slice(0, 60))}”`).join('; ')}.` : '';
  const invalid = page.invalidSelectors.length ? ` Selectors that do not compile (skipped): ${page.invalidSelectors.map((s) => `<code>${esc(s)}</code>`).join(', ')}.` : '';
  return `<section class="page" data-page-id="${escapeAttr(page.pageId)}">
<h2>Page ${i + 1}: <a href="${escapeAttr(page.url)}">${esc(page.url)}</a></h2>
<p>Taken: ${counts.map(([k, n]) => `${n} ${esc(k)}`).join(', ') || 'nothing'}.${cut}${unseen}${invalid}</p>
<div class="shot" style="width: ${pic.width}px; aspect-ratio: ${pic.width} / ${pic.height}" data-width="${pic.width}" data-height="${pic.height}">
<img alt="the page as stored, drawn in Chromium" width="${pic.width}" height="${pic.height}" src="data:image/png;base64,${pic.png.toString('base64')}">
${boxes.join('\n')}
</div>
<details><summary>The taken elements, in order</summary><table><tr><th>kind</th><th>rule</th><th>text</th></tr>
${pic.boxes.map((b) => `<tr><td>${esc(b.kind)}</td><td>${showsRule(b) ? `<code>${esc(b.rule)}</code>` : esc(b.rule)}</td><td>${esc(b.text)}</td></tr>`).join('\n')}
</table></details>
</section>`;
}

function clustersSection(rules: RulesDocument): string {
  const { params } = rules;
  const rows = rules.clusters.map(
    (c) => `<tr class="${c.chosen ? 'chosen' : ''}" data-cluster="${c.id}"><td class="num">${c.id === -1 ? 'noise' : c.id}</td><td class="num">${num(c.score, 4)}</td><td class="num">${c.blocks}</td><td class="num">${c.pages}</td><td>${c.chosen ? 'chosen' : '–'}</td><td>${esc(c.reason ?? '')}</td><td><code>${esc(c.selector)}</code></td><td>${esc(c.sample)}</td></tr>`,
  );
  return `<h2 id="clusters">Clusters</h2>
<p class="muted">DBSCAN (eps ${esc(String(params.eps))}, minPts ${esc(String(params.minPts))}) over the ${esc(String(params.blocks ?? '?'))} blocks of the ${esc(String(params.pages ?? rules.learnedFrom.length))} training pages found ${esc(String(params.clusters ?? rules.clusters.length))} clusters. A cluster's score is its mean share, over the pages, of each page's relevance (the TF-IDF similarity of a block to the page's title and description, times its words outside links), as learn computed it (lib/learn/select.ts); the highest first, the noise blocks (in no cluster) last. Learn records why a cluster was chosen, not why one was left out: outside the top clusters' region, scoring 0 and not sharing the article's words, text found word for word on other pages, named like boilerplate, or left out by the page-level extractor (docs/rules-document.md).</p>
<table><tr><th>cluster</th><th>score</th><th>blocks</th><th>pages</th><th>chosen</th><th>why</th><th>most common selector</th><th>sample</th></tr>
${rows.join('\n')}
</table>`;
}

function selfCheckSection(rules: RulesDocument): string {
  const s = rules.selfCheck;
  const fp = rules.fetchPath;
  return `<h2 id="self-check">Self-check</h2>
<p>The rules applied back to the ${s.pages} training pages' blocks: precision <b>${num(s.precision)}</b> (share of the words they take that are in chosen clusters), recall <b>${num(s.recall)}</b> (share of the chosen clusters' words they take).</p>
${s.adjusted.length ? `<p>Adjusted:</p><ul>${s.adjusted.map((a) => `<li><code>${esc(a)}</code></li>`).join('')}</ul>` : '<p>No selector was tightened, dropped or added.</p>'}
${fp ? `<p>Fetch path (docs/fetch-path.md): ${fp.works ? '<b>works</b>' : '<b>does not work</b>'}. The rules' text on the HTML as served against the rendered page, on ${fp.pages} page(s): lowest token F1 ${num(fp.minF1)}${fp.worstPage ? ` (page ${esc(fp.worstPage)})` : ''}, threshold ${num(fp.threshold, 2)}.</p>` : ''}`;
}

function fieldsSection(rules: RulesDocument): string {
  const f = rules.fields;
  if (!f) return '';
  const rows = (['title', 'byline', 'published'] as const).map((name) => {
    const fr: FieldRules | undefined = f[name];
    if (!fr || fr.rules.length === 0) return `<tr><td>${name}</td><td colspan="3" class="muted">no rule (the page's metadata gives it)</td></tr>`;
    return fr.rules.map((r, i) => `<tr>${i === 0 ? `<td rowspan="${fr.rules.length}">${name}</td>` : ''}<td><code>${esc(r.selector)}</code>${r.text ? ' (own text)' : ''}</td><td class="num">${num(r.score)}</td><td class="num">${r.support} of ${fr.posts}</td></tr>`).join('\n');
  });
  return `<h2 id="fields">Field rules</h2>
<p class="muted">Learned from ${f.training.posts} training posts (${f.training.fromFeed} values from feeds, ${f.training.fromMetadata} from page metadata${f.training.fromReadability ? `, ${f.training.fromReadability} bylines from Readability's reading of the page` : ''}${f.training.fromUrl ? `, ${f.training.fromUrl} dates from the day the URL names` : ''}); a field keeps its rules when together they give the right value on ${num(f.minScore, 2)} of its posts (a rule per layout of the site). Apply takes the first rule, in order, that gives a value.</p>
<table><tr><th>field</th><th>rule</th><th>score</th><th>support</th></tr>
${rows.join('\n')}
</table>`;
}

/** A template's rules: what tells its pages, and what apply takes on them (docs/rules-document.md#templates). */
function templateSection(template: TemplateRule, i: number): string {
  return `<h3>Template ${i} (learned from ${template.learnedFrom.length} page(s))</h3>
${selectorList('layout selectors (a page matching at least half of them is of this template)', template.layout)}
${selectorList('content selectors (the body)', template.content.selectors)}
${selectorList('dek selectors (the head of the body)', template.content.dek ?? [])}
${selectorList('header selectors', template.content.header ?? [])}
${selectorList('clean selectors', template.content.clean)}`;
}

function selectorList(title: string, selectors: readonly string[]): string {
  return `<p>${esc(title)}: ${selectors.length ? '' : 'none'}</p>${selectors.length ? `<ol>${selectors.map((s) => `<li><code>${esc(s)}</code></li>`).join('')}</ol>` : ''}`;
}
