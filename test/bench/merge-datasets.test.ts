import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeDatasets } from '../../bench/merge-datasets';
import { readDataset } from '../../lib/dataset/dataset';

let dir: string;

/** A dataset folder of pages `ids` of one site. */
async function dataset(name: string, ids: string[]): Promise<string> {
  const root = path.join(dir, name);
  await mkdir(path.join(root, 'pages'), { recursive: true });
  await mkdir(path.join(root, 'gold'), { recursive: true });
  const lines = [];
  for (const id of ids) {
    await writeFile(path.join(root, 'pages', `${id}.html`), `<p>${name} ${id}</p>`);
    await writeFile(path.join(root, 'gold', `${id}.txt`), `${name} ${id}`);
    lines.push(JSON.stringify({ id, site: 'news.example', url: `http://news.example/${name}/${id}`, html: `pages/${id}.html`, gold: `gold/${id}.txt` }));
  }
  await writeFile(path.join(root, 'manifest.jsonl'), lines.join('\n') + '\n');
  return root;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'spider-merge-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('mergeDatasets', () => {
  it('lists the first dataset\u2019s pages, then the next one\u2019s, where they are, ids kept apart', async () => {
    // the later capture's ids sort first on their own, and one is the earlier capture's too
    const old = await dataset('captures-2009', ['b', 'c']);
    const later = await dataset('captures-2013', ['a', 'b']);
    const out = path.join(dir, 'merged');
    expect(await mergeDatasets(out, [old, later])).toBe(4);
    const merged = await readDataset(out);
    expect(merged.entries.map((e) => e.id)).toEqual(['1-captures-2009-b', '1-captures-2009-c', '2-captures-2013-a', '2-captures-2013-b']);
    expect(merged.entries.map((e) => e.site)).toEqual(Array(4).fill('news.example'));
    expect(merged.entries[3].htmlPath).toBe(path.join(later, 'pages', 'b.html'));
    expect(await merged.entries[3].html()).toBe('<p>captures-2013 b</p>');
    expect(await merged.entries[0].gold()).toBe('captures-2009 b');
    // nothing copied: the folder holds the manifest alone
    expect(await readdir(out)).toEqual(['manifest.jsonl']);
  });

  it('keeps each dataset\u2019s own manifest order, and never writes over a manifest', async () => {
    const unsorted = await dataset('hand-made', ['z', 'a']);
    const out = path.join(dir, 'merged-2');
    await mergeDatasets(out, [unsorted, path.join(dir, 'captures-2009')]);
    expect((await readDataset(out)).entries.map((e) => e.id)).toEqual(['1-hand-made-z', '1-hand-made-a', '2-captures-2009-b', '2-captures-2009-c']);
    await expect(mergeDatasets(unsorted, [unsorted, path.join(dir, 'captures-2009')])).rejects.toThrow(/exists/);
    expect((await readDataset(unsorted)).entries.map((e) => e.id)).toEqual(['z', 'a']);
  });

  it('needs two datasets', async () => {
    await expect(mergeDatasets(path.join(dir, 'one'), [path.join(dir, 'captures-2009')])).rejects.toThrow(/two dataset folders/);
  });
});
