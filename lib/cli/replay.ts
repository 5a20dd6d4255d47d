/**
 * `spider replay <dataset>`: queue a dataset's archived pages (manifest.jsonl, pages/, gold/) for
 * rendering at their own URLs; the archived HTML goes through the store, the message carries its key.
 */
import { readDataset } from '../dataset/dataset';
import type { EmbeddedPipeline } from '../pipeline/embedded';

export interface ReplayOptions {
  readonly limit?: number;
  readonly site?: readonly string[];
}

/** Queues the dataset's pages that have a URL; returns how many were queued and skipped. */
export async function runReplay(pipeline: EmbeddedPipeline, dir: string, options: ReplayOptions = {}) {
  const dataset = await readDataset(dir);
  let entries = dataset.entries.filter((e) => e.url !== null);
  const skipped = dataset.entries.length - entries.length;
  if (options.site?.length) entries = entries.filter((e) => e.site !== null && options.site!.includes(e.site));
  if (options.limit !== undefined) entries = entries.slice(0, options.limit);
  for (const entry of entries) await pipeline.submit([{ url: entry.url!, html: await entry.html() }]);
  process.stderr.write(`queued ${entries.length} pages of ${dataset.name}${skipped ? `; ${skipped} without a URL skipped` : ''}\n`);
  return { queued: entries.length, skipped };
}
