/**
 * Chromium in a long-lived process: many renders through one Renderer must not grow /tmp, leak pages,
 * or leave Chromium processes behind once it is closed.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { Renderer } from '../../lib/render/browser';
import { serveRoutes, type TestServer } from '../helpers/http-server';

const RENDERS = Number(process.env.SPIDER_SOAK_RENDERS ?? 500);

/**
 * Bytes under the temporary folder (du, as a person would measure it). Other test files create and
 * remove files there meanwhile: du exits 1 for a file that vanished as it counted, and still prints
 * the total.
 */
function tmpBytes(): number {
  let out: string;
  try {
    out = execFileSync('du', ['-sb', os.tmpdir()], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    out = String((error as { stdout?: string }).stdout ?? '');
  }
  const bytes = Number(out.split('\t')[0]);
  if (!out || !Number.isFinite(bytes)) throw new Error(`du -sb ${os.tmpdir()} printed no total`);
  return bytes;
}

/** Processes whose command line mentions the given text. */
function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

describe(`soak: ${RENDERS} renders in one process`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serveRoutes({
      '/p': (req) => ({
        body: `<!doctype html><html><head><title>Page</title><style>p{font-size:18px}</style></head><body>
          <h1>Page ${req.url}</h1><p>${'Some words in a paragraph. '.repeat(40)}</p>
          <script>localStorage.setItem('k', 'v'.repeat(10000)); document.cookie = 'a=b';</script></body></html>`,
      }),
    });
  });
  afterAll(() => server?.close());

  it('keeps /tmp growth under 50 MB, leaks no pages, and leaves no Chromium process after close', { timeout: 900_000 }, async () => {
    const renderer = new Renderer(loadConfig({ renderTimeoutMs: 20_000 }));
    await renderer.render({ url: `${server.origin}/p?warmup` }); // Chromium unpacked, browser up
    const before = tmpBytes();
    const archived = `<!doctype html><html><head><title>Archived</title></head><body><h1>Archived</h1>
      <p>${'Archived words in a paragraph. '.repeat(40)}</p><script>localStorage.setItem('k', 'v'.repeat(10000))</script></body></html>`;
    for (let i = 0; i < RENDERS; i++) {
      // Every tenth page live (network, cookies, storage), the rest archived copies as replays send them.
      const url = `${server.origin}/p?i=${i}`;
      const result = await renderer.render(i % 10 === 0 ? { url } : { url, archivedHtml: archived });
      expect(result.collected.blocks.length).toBe(2);
    }
    const grown = tmpBytes() - before;
    const open = await renderer.openPages();
    const profile = renderer.profileDir!;
    expect(processesMentioning(profile).length).toBeGreaterThan(0);
    await renderer.close();
    console.info(`soak: ${RENDERS} renders, /tmp grew ${(grown / 1048576).toFixed(1)} MB, ${open} pages open at the end`);
    expect(grown).toBeLessThan(50 * 1024 * 1024);
    expect(open).toBeLessThanOrEqual(1); // the browser's first blank tab at most
    await new Promise((r) => setTimeout(r, 500));
    expect(processesMentioning(profile)).toEqual([]);
  });
});
