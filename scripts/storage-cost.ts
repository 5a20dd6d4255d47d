/**
 * What a store's pages cost to keep on S3, and whether Intelligent-Tiering pays for them
 * (docs/aws.md, "Storage"):
 *
 *   npx tsx scripts/storage-cost.ts --data-dir ./spider-data
 *
 * Reads the sizes of the objects under `pages/` (feature documents, snapshots, the HTML as served)
 * of an embedded data folder, which has the bucket's layout, and prices them with AWS's list prices
 * (scripts/aws-prices.ts): S3 Standard a month per million pages like these, and what moving them to
 * Intelligent-Tiering adds or saves over the months after the transition, for objects from 128 KiB
 * (the least it tiers) and from 256 KiB. A tiered object spends its first month in the Frequent
 * tier, the next two in the Infrequent one and then the Archive Instant one, as an object nobody reads
 * does (relearns read the newest pages only); each pays the transition once and the monitoring
 * fee every month.
 */
import { embeddedStore } from '../lib/store/fs-store';
import { keyPrefixes } from '../lib/store/keys';
import { scriptArgs } from '../lib/util/script-args';
import { PRICES } from './aws-prices';

const { values: args } = scriptArgs(
  { options: { 'data-dir': { type: 'string', default: './spider-data' } } },
  'usage: npx tsx scripts/storage-cost.ts [--data-dir ./spider-data]',
);

const GB = 2 ** 30;
const KIB = 1024;
const HORIZONS = [3, 6, 12, 24];
const THRESHOLDS_KIB = [128, 256];

/** Intelligent-Tiering minus Standard, in dollars, for an object of this size over the months since its transition. */
function tieringDelta(bytes: number, months: number): number {
  const p = PRICES.s3GbMonth;
  const gb = bytes / GB;
  let delta = PRICES.s3TieringTransition;
  for (let m = 1; m <= months; m++) {
    const tier = m <= 1 ? p.frequent : m <= 3 ? p.infrequent : p.archiveInstant;
    delta += tier * gb + PRICES.s3TieringMonitoring - p.standard * gb;
  }
  return delta;
}

/** Months after its transition until Intelligent-Tiering has cost an object of this size less than Standard; undefined if never within 10 years. */
function monthsToRepay(bytes: number): number | undefined {
  for (let m = 1; m <= 120; m++) if (tieringDelta(bytes, m) < 0) return m;
  return undefined;
}

async function main(): Promise<void> {
  const store = embeddedStore(args['data-dir']!);
  const listed = await store.list(keyPrefixes.pages);
  const pages = new Set(listed.map((o) => o.key.split('/').slice(0, 3).join('/')));
  if (!pages.size) throw new Error(`no pages in the data folder ${args['data-dir']}`);
  const byFile = new Map<string, number[]>();
  for (const o of listed) {
    const file = o.key.split('/').pop()!;
    byFile.set(file, [...(byFile.get(file) ?? []), o.size]);
  }
  const perMillion = 1e6 / pages.size;
  const kib = (n: number) => `${Math.round(n / KIB)} KiB`;
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const out: string[] = [`${pages.size} pages, ${listed.length} objects under ${keyPrefixes.pages} (${PRICES.asOf})`, ''];
  out.push('object          count  median     p90   ≥128 KiB  ≥256 KiB');
  for (const [file, sizes] of [...byFile].sort()) {
    const s = [...sizes].sort((a, b) => a - b);
    const share = (min: number) => `${Math.round((100 * s.filter((x) => x >= min * KIB).length) / s.length)}%`;
    out.push(`${file.padEnd(14)} ${String(s.length).padStart(6)} ${kib(quantile(s, 0.5)).padStart(7)} ${kib(quantile(s, 0.9)).padStart(7)} ${share(128).padStart(9)} ${share(256).padStart(9)}`);
  }
  const bytes = listed.reduce((n, o) => n + o.size, 0);
  out.push('', `S3 Standard: $${((bytes / GB) * PRICES.s3GbMonth.standard * perMillion).toFixed(2)} a month per million such pages`);
  out.push('', 'Intelligent-Tiering minus Standard, per million pages, over the months after the transition (negative: it saves)');
  out.push(`objects from   ${HORIZONS.map((h) => `${h} months`.padStart(10)).join('')}`);
  for (const min of THRESHOLDS_KIB) {
    const tiered = listed.filter((o) => o.size >= min * KIB);
    out.push(`${`${min} KiB`.padEnd(13)} ${HORIZONS.map((h) => `$${(tiered.reduce((n, o) => n + tieringDelta(o.size, h), 0) * perMillion).toFixed(1)}`.padStart(10)).join('')}`);
  }
  out.push('', 'months after the transition until tiering one object has cost less than keeping it in Standard:');
  out.push([128, 140, 160, 200, 256, 300, 400, 1024].map((k) => `${k} KiB: ${monthsToRepay(k * KIB) ?? 'never'}`).join(', '));
  process.stdout.write(out.join('\n') + '\n');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
