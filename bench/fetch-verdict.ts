/**
 * The fetch-path verdict per site on multi-page datasets: `npx tsx bench/fetch-verdict.ts <dataset dir>...
 * [--train 5] [--sites-by host|dataset] [--cache-root dir] [--trust-cache] [--json out.json]`.
 *
 * A site is a host, as the pipeline keys it (bench/sites.ts; `--sites-by dataset`: the manifest's
 * registrable domain). Each site with more than `train` pages learns from its first `train` pages
 * with the learn step (forced), in a store of its own holding what the render step leaves: the feature documents, the
 * snapshots and the HTML as served (for a dataset page: its archived copy, as render stores it for a
 * replay; taken from the dataset when the cached render predates served.html). The learn records the
 * verdict (docs/fetch-path.md); this prints it per site and counts the sites whose rules work without
 * a browser. Renders come from the bench's cache (`<cache-root>/<dataset>/`) when it holds them.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../lib/config/config';
import { scriptArgs } from '../lib/util/script-args';
import { readDataset } from '../lib/dataset/dataset';
import { learnStep } from '../lib/learn/learn-step';
import { silentLogger } from '../lib/step/context';
import { keys } from '../lib/store/keys';
import { MemoryStore } from '../lib/store/memory-store';
import { putJson } from '../lib/store/store';
import type { FetchPathVerdict } from '../lib/types/rules-document';
import { BenchRenderer, placeholderUrl, recordingQueues } from './render';
import { groupBySite, NO_SITE, type SitesBy } from './sites';

const { values: args, positionals } = scriptArgs(
  {
    allowPositionals: true,
    options: {
      train: { type: 'string', default: '5' },
      'sites-by': { type: 'string', default: 'host' },
      'cache-root': { type: 'string' },
      'trust-cache': { type: 'boolean', default: false },
      json: { type: 'string' },
    },
  },
  'usage: npx tsx bench/fetch-verdict.ts <dataset dir>... [--train 5] [--sites-by host|dataset] [--cache-root dir] [--trust-cache] [--json out.json]',
);
const train = Number(args.train);
if (args['sites-by'] !== 'host' && args['sites-by'] !== 'dataset') throw new Error(`--sites-by: host or dataset, not ${args['sites-by']}`);
const sitesBy: SitesBy = args['sites-by'];
const say = (line: string) => process.stderr.write(line + '\n');

interface SiteVerdict { dataset: string; site: string; verdict?: FetchPathVerdict; selectors?: readonly string[]; note?: string }

async function main(): Promise<void> {
  const rows: SiteVerdict[] = [];
  const config = loadConfig({ learnPages: Math.max(train, 50) });
  for (const dir of positionals) {
    const dataset = await readDataset(dir);
    const renderer = new BenchRenderer({
      config,
      cacheDir: args['cache-root'] ? path.join(args['cache-root'], dataset.name) : undefined,
      trustCache: args['trust-cache'],
    });
    try {
      for (const [site, entries] of groupBySite(dataset.entries, sitesBy)) {
        if (site === NO_SITE || entries.length < train + 1) continue;
        const store = new MemoryStore();
        let siteKey: string | undefined;
        for (const e of entries.slice(0, train)) {
          const html = await e.html();
          const page = await renderer.render(e.id, e.url ?? placeholderUrl(e.id), html);
          if (!page.features || !page.snapshot) continue;
          siteKey = page.site;
          // A dataset page is replayed from its archived copy, which is what render stores as served;
          // cache entries written before render kept it lack it: the archived copy, as render would.
          const servedKey = keys.served(page.site, page.pageId);
          const served = page.served ?? html;
          const features = page.features.served ? page.features : { ...page.features, served: { key: servedKey, bytes: Buffer.byteLength(served), textLength: 0 } };
          await putJson(store, keys.features(page.site, page.pageId), features);
          await store.put(page.features.snapshotKey, page.snapshot, { contentType: 'text/html; charset=utf-8' });
          await store.put(features.served!.key, served, { contentType: 'text/html; charset=utf-8' });
        }
        if (!siteKey) {
          rows.push({ dataset: dataset.name, site, note: 'no page rendered' });
          continue;
        }
        const outcome = await learnStep({ v: 1, site: siteKey, force: true }, { store, queues: recordingQueues(), config, logger: silentLogger });
        const row: SiteVerdict = outcome.learned ? { dataset: dataset.name, site, verdict: outcome.rules.fetchPath, selectors: outcome.rules.content.selectors } : { dataset: dataset.name, site, note: outcome.reason };
        rows.push(row);
        say(`${dataset.name} ${site}: ${row.verdict ? `${row.verdict.works ? 'works' : 'does not work'} (${row.verdict.pages} pages, min F1 ${row.verdict.minF1})` : row.note}`);
      }
    } finally {
      await renderer.close();
    }
  }
  const summary = Object.fromEntries(
    [...new Set(rows.map((r) => r.dataset))].map((d) => {
      const of = rows.filter((r) => r.dataset === d);
      return [d, { sites: of.length, learned: of.filter((r) => r.verdict).length, works: of.filter((r) => r.verdict?.works).length }];
    }),
  );
  say(JSON.stringify(summary));
  if (args.json) await writeFile(args.json, JSON.stringify({ train, summary, rows }, null, 2) + '\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
