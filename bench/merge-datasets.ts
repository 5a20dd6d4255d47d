/**
 * Several dataset folders as one, in order: a site's pages of two captures one after the other (a
 * redesign: big9-09's 2009 pages, then big9-13's 2013 ones), so that `--train n` learns from the
 * old pages and the first new ones, and scores the rest of the new ones, as a site relearning after
 * its redesign does. The manifest names the pages where they are (absolute paths, nothing copied),
 * each dataset's in its own manifest order; ids are prefixed with the dataset's position and name,
 * so they stay apart and sort in that order too. Only tools that read the manifest (the bench) work
 * on the merged folder: it has no pages/ or gold/ of its own.
 *
 *   npx tsx bench/merge-datasets.ts <out folder> <dataset folder>…
 */
import { realpathSync } from 'node:fs';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDataset, type ManifestLine } from '../lib/dataset/dataset';

/** Write `<out>/manifest.jsonl` of the datasets' pages, the first dataset's first; returns the page count. */
export async function mergeDatasets(out: string, dirs: readonly string[]): Promise<number> {
  if (dirs.length < 2) throw new Error('name two dataset folders or more');
  const manifest = path.join(out, 'manifest.jsonl');
  if (await access(manifest).then(() => true, () => false)) throw new Error(`${manifest} exists: name a new folder (a dataset's own manifest is never overwritten)`);
  const width = String(dirs.length).length;
  const lines: ManifestLine[] = [];
  for (const [i, dir] of dirs.entries()) {
    const dataset = await readDataset(dir);
    const prefix = String(i + 1).padStart(width, '0');
    for (const e of dataset.entries) lines.push({ id: `${prefix}-${dataset.name}-${e.id}`, site: e.site, url: e.url, html: e.htmlPath, gold: e.goldPath });
  }
  await mkdir(out, { recursive: true });
  await writeFile(manifest, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return lines.length;
}

if (process.argv[1] && realpathSync(path.resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url))) {
  const [out, ...dirs] = process.argv.slice(2);
  if (!out || dirs.length < 2) {
    process.stderr.write('usage: npx tsx bench/merge-datasets.ts <out folder> <dataset folder> <dataset folder>…\n');
    process.exit(2);
  }
  mergeDatasets(out, dirs).then(
    (n) => process.stdout.write(`wrote ${path.join(out, 'manifest.jsonl')}: ${n} pages of ${dirs.length} datasets\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
