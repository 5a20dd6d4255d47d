/** The bench's terminal report: overall table, per-site table, timing, and the field table with --fields. */
import type { FieldsJson } from './fields';
import type { BenchResult, Figures } from './run';

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
const ms = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? '-' : x.toFixed(digits));

function table(header: string[], rows: string[][], alignLeft = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i < alignLeft ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

function row(name: string, f: Figures, msMedian: number | null | undefined): string[] {
  return [
    name,
    String(f.pages),
    f3(f.precision),
    f3(f.recall),
    f.f1 === null ? '-' : `${f3(f.f1)} ± ${f3(f.std.f1)}`,
    f3(f.accuracy),
    ms(msMedian),
  ];
}

/**
 * How a run split each site's pages into training and scored ones, and the fallback model it used
 * when not the shipped default, as its options would be given: `--train 5 --train-seed 1`. Results
 * of different splits are not one set of pages, nor of different models one extractor (bench/pooled.ts).
 */
export function splitLabel(options: BenchResult['options']): string {
  return (
    `--train ${options.train}` +
    (options.trainFrom ? ` --train-from ${options.trainFrom}` : '') +
    (options.trainSeed !== undefined ? ` --train-seed ${options.trainSeed}` : '') +
    // results written before --sites-by grouped by the manifest's sites
    (options.sitesBy !== 'host' ? ' --sites-by dataset' : '') +
    (options.learnFrom ? ` --learn-from ${options.learnFrom}` : '') +
    (options.fallbackModel ? ` --fallback-model ${options.fallbackModel.file} (${options.fallbackModel.sha256})` : '')
  );
}

export function formatReport(r: BenchResult): string {
  const out: string[] = [];
  const peerNames = Object.keys(r.peers);
  out.push(
    `${r.dataset}: ${r.pages} pages on ${r.sites} sites, ${splitLabel(r.options)}: ${r.learnedSites} sites learned from ${r.trainPages} pages${r.options.learnFrom ? ` of ${r.options.learnFrom}` : ''}; ` +
      `${r.scoredPages} pages scored (${r.ours.learnedPages} of learned sites, ${r.ours.fallbackPages} through the fallback)`,
  );
  out.push(
    r.options.scoring === 'body'
      ? 'scoring: body (each tool\'s body text alone; --body-only)'
      : 'scoring: title+body (each tool\'s own title as the first line, then its body, as the gold starts with the headline; --body-only to score bodies alone)',
  );
  if (r.options.fallbackModel) out.push(`fallback model: ${r.options.fallbackModel.file} (sha256 ${r.options.fallbackModel.sha256}…), trained on ${r.options.fallbackModel.trainedOn}; the fallback's methods alone use it too`);
  if (r.ours.renderFailures) out.push(`render failures: ${r.ours.renderFailures} (their pages score as empty for us)`);
  for (const s of r.skippedPeers) out.push(`peer ${s.name} skipped: ${s.reason}`);
  out.push('');

  const header = ['', 'pages', 'precision', 'recall', 'F1 ± std', 'accuracy', 'ms/page median'];
  const rows: string[][] = [];
  const methodNames = Object.keys(r.fallbackMethods ?? {});
  const section = (
    label: string,
    ours: Figures,
    ourMs: number | null,
    pick: (p: BenchResult['peers'][string]) => Figures & { msMedian: number | null },
    withMethods = false,
  ) => {
    if (ours.pages === 0) return;
    rows.push(row(`ours, ${label}`, ours, ourMs));
    if (withMethods) for (const m of methodNames) rows.push(row(`  method ${m}`, r.fallbackMethods[m], r.fallbackMethods[m].msMedian));
    for (const name of peerNames) {
      const p = pick(r.peers[name]);
      rows.push(row(`  ${name}`, p, p.msMedian));
    }
  };
  section('learned sites', r.ours.learned, r.timing.applyMsMedianLearned, (p) => p.learned);
  section(methodNames.length ? 'fallback (combined)' : 'fallback', r.ours.fallback, r.timing.applyMsMedianFallback, (p) => p.fallback, true);
  // "all" only adds information when both groups have pages.
  if (r.ours.learned.pages > 0 && r.ours.fallback.pages > 0) section('all scored', r.ours, r.timing.applyMsMedian, (p) => p);
  out.push(table(header, rows));
  out.push('ours: apply step on the rendered snapshot (parse + metadata + extract); peers: the archived HTML (parse included)');
  if (methodNames.length && r.ours.fallback.pages > 0) {
    out.push(
      'method <m>: one of the fallback\'s methods alone on the same snapshots (parse + extract)' +
        (r.options.scoring === 'body' ? '' : ', scored with the title apply found'),
    );
  }
  if (r.ours.learnedPages) {
    const notRendered = r.ours.learnedPages - r.ours.rulesMethodPages - r.ours.fallbackMethodPages;
    out.push(
      `pages of learned sites extracted with the rules: ${r.ours.rulesMethodPages}, with the fallback (rules selected nothing, or no rules learned): ${r.ours.fallbackMethodPages}` +
        (notRendered ? `, not rendered: ${notRendered}` : ''),
    );
  }
  out.push('');

  const siteHeader = ['site', 'pages', 'train', 'scored', 'rules', 'ours F1', ...peerNames, 'best peer', 'Δ'];
  const siteRows = r.perSite.map((s) => {
    const best = s.bestPeer?.f1 ?? null;
    const delta = s.ours.f1 !== null && best !== null ? s.ours.f1 - best : null;
    return [
      s.site,
      String(s.pages),
      String(s.trainPages),
      String(s.scoredPages),
      s.group === 'fallback' ? 'fallback' : s.learned ? `${s.rulesPages}/${s.scoredPages}` : 'none',
      f3(s.ours.f1),
      ...peerNames.map((n) => f3(s.peers[n])),
      s.bestPeer ? `${s.bestPeer.name} ${f3(s.bestPeer.f1)}` : '-',
      delta === null ? '-' : (delta >= 0 ? '+' : '') + delta.toFixed(3),
    ];
  });
  out.push(table(siteHeader, siteRows));
  out.push('rules: scored pages extracted with the learned rules / scored pages ("none": learning gave no rules)');
  out.push('');

  const t = r.timing;
  out.push(
    `apply (ours, parse included): median ${ms(t.applyMsMedian)} ms, p90 ${ms(t.applyMsP90)} ms; learned sites ${ms(t.applyMsMedianLearned)} ms, fallback ${ms(t.applyMsMedianFallback)} ms`,
  );
  if (t.readabilityOverApplyLearned !== null || t.readabilityOverApplyAll !== null) {
    out.push(`Readability median / our apply median: ${t.readabilityOverApplyLearned ?? '-'}× on learned-site pages, ${t.readabilityOverApplyAll ?? '-'}× on all scored pages (floor: ≥ 20×)`);
  }
  if (t.learnMsPerSite !== null) {
    out.push(`learn step per site (${r.options.train} pages, in-memory store): mean ${ms(t.learnMsPerSite, 1)} ms, median ${ms(t.learnMsMedian, 1)} ms, max ${ms(t.learnMsMax, 1)} ms`);
  }
  out.push(
    `render (Chromium, browser reused, archived page): median ${ms(t.renderMsMedian, 0)} ms, p90 ${ms(t.renderMsP90, 0)} ms per page; ` +
      `${t.renderedThisRun} rendered this run, ${t.renderedFromCache} from the cache` +
      (t.renderedByOtherCode ? ` (${t.renderedByOtherCode} written by other render code: --trust-cache)` : ''),
  );
  if (t.peerRunsFromCache) out.push(`peers: ${t.peerRunsFromCache} runs from the peer cache (their times are those of the run that recorded them)`);
  const w = t.wallSeconds;
  out.push(`wall time: render ${w.render} s, learn ${w.learn} s, apply ${w.apply} s, peers ${w.peers} s, total ${w.total} s`);
  if (r.fields) out.push('', formatFields(r.fields));
  return out.join('\n');
}

const FIELDS = ['title', 'byline', 'published'] as const;
const pct = (right: number, pages: number) => (pages ? `${((right / pages) * 100).toFixed(1)}%` : '-');

/** The --fields tables: per field, ours (learned HTML rules alone) beside Readability.js; then per site. */
export function formatFields(f: FieldsJson): string {
  const out: string[] = [];
  out.push(
    `fields: learned from the first ${f.train} pages of ${f.sites.length} sites with machine-readable values; ` +
      'extracted from the other pages with those values removed from the HTML (learned HTML rules alone), beside Readability.js on the same stripped pages',
  );
  out.push(
    table(
      ['field', 'pages', 'ours', 'readability'],
      FIELDS.map((k) => [k, String(f.ours[k].pages), pct(f.ours[k].right, f.ours[k].pages), pct(f.readability[k].right, f.readability[k].pages)]),
    ),
  );
  if (f.sites.length) {
    out.push('');
    const cell = (side: FieldsJson['sites'][number]['ours'], k: (typeof FIELDS)[number]) => {
      const c = side[k];
      return c ? `${c.right}/${c.pages}` : '-';
    };
    out.push(
      table(
        ['site', 'test pages', ...FIELDS.flatMap((k) => [`${k} ours`, 'readability'])],
        f.sites.map((s) => [s.site, String(s.testPages), ...FIELDS.flatMap((k) => [cell(s.ours, k), cell(s.readability, k)])]),
      ),
    );
  }
  out.push('per site: right / pages counted ("-": the field is not counted there); the learned rules are in the JSON (fields.sites[].rules)');
  out.push(`renders for the field bench: ${f.renders.rendered} this run, ${f.renders.cached} from the cache, ${f.renders.failed} failed`);
  return out.join('\n');
}
