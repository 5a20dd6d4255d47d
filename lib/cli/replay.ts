/**
 * `spider replay <dataset>`: queue a dataset's archived pages (manifest.jsonl, pages/) for rendering
 * at their own URLs; the archived HTML goes through the store, the message carries its key. It does
 * not read gold/ nor score the articles: the bench does (`npm run bench`, bench/README.md), which
 * learns from the first pages of each site and scores the others, next to peer extractors; lib/ may
 * not import bench/, and a replay learns from every page it scores, so its figures would not be the
 * bench's.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { readDataset, type Dataset } from '../dataset/dataset';
import type { EmbeddedPipeline } from '../pipeline/embedded';
import { plural } from '../text/plural';

export interface ReplayOptions {
  readonly limit?: number;
  readonly site?: readonly string[];
}

/** Queues the dataset's pages that have a URL (of the sites asked for); returns how many were queued and skipped. */
export async function runReplay(pipeline: EmbeddedPipeline, dir: string, options: ReplayOptions = {}) {
  const dataset = await readDataset(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') throw error;
    throw new Error(`no dataset at ${dir}: it has no manifest.jsonl (a dataset folder holds manifest.jsonl and pages/: docs/datasets.md)`);
  });
  let chosen = dataset.entries;
  if (options.site?.length) {
    // A site no page is of would queue nothing and look like success: name it, and the sites there are
    // (of every page, with a URL or not).
    const sites = [...new Set(dataset.entries.map((e) => e.site).filter((s): s is string => s !== null))].sort();
    const unknown = options.site.filter((s) => !sites.includes(s));
    if (unknown.length) {
      const some = sites.length ? `its sites: ${sites.slice(0, 5).join(', ')}${sites.length > 5 ? ` and ${sites.length - 5} more` : ''}` : 'its manifest names no site';
      throw new Error(`no page of ${dataset.name} is of ${unknown.join(', ')} (${some})`);
    }
    chosen = chosen.filter((e) => e.site !== null && options.site!.includes(e.site));
    // so would a site whose pages all lack the URL a replay renders them at
    const urlless = options.site.filter((s) => !chosen.some((e) => e.site === s && e.url !== null));
    if (urlless.length) {
      const count = chosen.filter((e) => e.site !== null && urlless.includes(e.site)).length;
      throw new Error(`no page of ${urlless.join(', ')} in ${dataset.name} has a URL, and replay renders each page at its URL: ${plural(count, 'page')} without one, skipped`);
    }
  }
  let entries = chosen.filter((e) => e.url !== null);
  const skipped = chosen.length - entries.length;
  if (options.limit !== undefined) entries = entries.slice(0, options.limit);
  await refuseUnreadable(dataset, entries);
  for (const entry of entries) await pipeline.submit([{ url: entry.url!, html: await entry.html() }]);
  process.stderr.write(`queued ${plural(entries.length, 'page')} of ${dataset.name}${skipped ? `; ${skipped} without a URL skipped` : ''}\n`);
  return { queued: entries.length, skipped };
}

/**
 * A page file the manifest names and the folder lacks (or cannot be read) is said before anything is
 * queued, naming it: the replay stopped on Node's bare ENOENT halfway, the pages before it left queued.
 */
async function refuseUnreadable(dataset: Dataset, entries: Dataset['entries']): Promise<void> {
  const unreadable: string[] = [];
  for (const entry of entries) {
    await access(entry.htmlPath).catch((error: NodeJS.ErrnoException) => unreadable.push(`${path.relative(dataset.dir, entry.htmlPath)} (${error.code ?? error.message})`));
  }
  if (!unreadable.length) return;
  const named = unreadable.slice(0, 5).join(', ') + (unreadable.length > 5 ? ` and ${unreadable.length - 5} more` : '');
  throw new Error(`${plural(unreadable.length, 'page file')} of ${dataset.name}'s manifest cannot be read: ${named}; nothing queued`);
}

/** Said after a replay: what it did not do, and what does. */
export function replayScoringNote(dir: string): string {
  return `replay does not score the articles against ${dir.replace(/\/+$/, '')}/gold/: \`npm run bench -- ${dir}\` does (bench/README.md)`;
}
