/**
 * Read an article-extraction dataset folder (docs/datasets.md):
 * `manifest.jsonl` (one {id, site, url, html, gold} per line), `pages/<id>.html`, `gold/<id>.txt`.
 * Entries carry absolute paths; page and gold texts are read only when asked for.
 */
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';

export const ManifestLineSchema = z.object({
  id: z.string().min(1),
  site: z.string().nullable(),
  url: z.string().nullable(),
  html: z.string().min(1),
  gold: z.string().min(1),
});
export type ManifestLine = z.infer<typeof ManifestLineSchema>;

export interface DatasetEntry {
  readonly id: string;
  /** Registrable domain of the URL, or null when the URL is unknown. */
  readonly site: string | null;
  readonly url: string | null;
  /** Absolute path of the page's HTML. */
  readonly htmlPath: string;
  /** Absolute path of the gold article text. */
  readonly goldPath: string;
  /** The page's HTML (read from disk on each call). */
  html(): Promise<string>;
  /** The gold article text (read from disk on each call). */
  gold(): Promise<string>;
}

export interface Dataset {
  readonly name: string;
  readonly dir: string;
  readonly entries: readonly DatasetEntry[];
}

/** Load a dataset's manifest. Throws with the line number on a malformed line. */
export async function readDataset(dir: string): Promise<Dataset> {
  const root = resolve(dir);
  const manifest = await readFile(resolve(root, 'manifest.jsonl'), 'utf8');
  const entries: DatasetEntry[] = [];
  const lines = manifest.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let parsed: ManifestLine;
    try {
      parsed = ManifestLineSchema.parse(JSON.parse(line));
    } catch (error) {
      throw new Error(`${root}/manifest.jsonl line ${i + 1}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const htmlPath = isAbsolute(parsed.html) ? parsed.html : resolve(root, parsed.html);
    const goldPath = isAbsolute(parsed.gold) ? parsed.gold : resolve(root, parsed.gold);
    entries.push({
      id: parsed.id,
      site: parsed.site,
      url: parsed.url,
      htmlPath,
      goldPath,
      html: () => readFile(htmlPath, 'utf8'),
      gold: () => readFile(goldPath, 'utf8'),
    });
  }
  return { name: basename(root), dir: root, entries };
}
