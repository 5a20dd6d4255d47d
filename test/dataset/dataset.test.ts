import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '../../lib/dataset/dataset';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'spider-dataset-'));
  await mkdir(path.join(dir, 'pages'));
  await mkdir(path.join(dir, 'gold'));
  await writeFile(path.join(dir, 'pages', 'a.html'), '<p>Page A</p>');
  await writeFile(path.join(dir, 'gold', 'a.txt'), 'Gold A');
  await writeFile(path.join(dir, 'pages', 'b.html'), '<p>Page B</p>');
  await writeFile(path.join(dir, 'gold', 'b.txt'), 'Gold B');
  const lines = [
    { id: 'a', site: 'example.com', url: 'http://example.com/a', html: 'pages/a.html', gold: 'gold/a.txt' },
    { id: 'b', site: null, url: null, html: 'pages/b.html', gold: 'gold/b.txt' },
  ];
  await writeFile(path.join(dir, 'manifest.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readDataset', () => {
  it('reads the manifest into entries with absolute paths and lazy texts', async () => {
    const ds = await readDataset(dir);
    expect(ds.entries.map((e) => e.id)).toEqual(['a', 'b']);
    expect(ds.name).toBe(path.basename(dir));
    const [a, b] = ds.entries;
    expect(path.isAbsolute(a.htmlPath)).toBe(true);
    expect(a.htmlPath).toBe(path.join(dir, 'pages', 'a.html'));
    expect(a.site).toBe('example.com');
    expect(b.url).toBeNull();
    expect(await a.html()).toBe('<p>Page A</p>');
    expect(await b.gold()).toBe('Gold B');
  });

  it('names the line of a malformed manifest entry', async () => {
    const bad = await mkdtemp(path.join(tmpdir(), 'spider-dataset-bad-'));
    await writeFile(path.join(bad, 'manifest.jsonl'), '{"id":"x","site":null,"url":null,"html":"p.html","gold":"g.txt"}\n{"id":1}\n');
    await expect(readDataset(bad)).rejects.toThrow(/line 2/);
    await rm(bad, { recursive: true, force: true });
  });
});
