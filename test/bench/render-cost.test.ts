/**
 * bench/render-cost.ts: the render it times without the page-level evidence really leaves it out
 * (real Chromium, an archived page), and its paired figures.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { costRow } from '../../bench/render-cost';
import { seededRandom } from '../../bench/stats';
import { loadConfig } from '../../lib/config/config';
import { Renderer } from '../../lib/render/browser';
import { READABILITY_MARK, SNAPSHOT_META } from '../../lib/types/feature-document';

const paragraphs = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1} of the story, long enough for Readability to keep it: the council met on Tuesday, argued over the budget, and voted late at night.</p>`);
const html = `<!doctype html><html><head><title>The council votes</title></head><body><nav><a href="/">Home</a></nav><article><h1>The council votes</h1>${paragraphs.join('')}</article></body></html>`;
const url = 'https://news.example/council';

const renderers: Renderer[] = [];
afterAll(async () => {
  await Promise.all(renderers.map((r) => r.close()));
});

describe('render cost', () => {
  it('renders with the page-level evidence by default, and without it only when asked', async () => {
    const config = loadConfig({ renderTimeoutMs: 20_000 });
    const withIt = new Renderer(config);
    const without = new Renderer(config, { withoutPageEvidence: true });
    renderers.push(withIt, without);

    const a = await withIt.render({ url, archivedHtml: html });
    expect(a.readability?.ok).toBe(true);
    expect(a.snapshot).toContain(READABILITY_MARK);
    expect(a.snapshot).toContain(SNAPSHOT_META.servedText);
    expect(a.snapshot).toContain(SNAPSHOT_META.renderedText);

    const b = await without.render({ url, archivedHtml: html });
    expect(b.readability).toBeUndefined();
    expect(b.snapshot).not.toContain(READABILITY_MARK);
    expect(b.snapshot).not.toContain(SNAPSHOT_META.servedText);
    expect(b.snapshot).not.toContain(SNAPSHOT_META.renderedText);
    // the rest of the render is the same
    expect(b.collected.blocks.map((x) => x.text)).toEqual(a.collected.blocks.map((x) => x.text));
  }, 60_000);

  it('pairs each page\'s times: growth of the median, per-page difference and ratio', () => {
    const pages = [
      { with: 110, without: 100 },
      { with: 220, without: 200 },
      { with: 330, without: 300 },
    ];
    const row = costRow('set', pages, seededRandom(1), 200);
    expect(row).toMatchObject({ set: 'set', pages: 3, medianWith: 220, medianWithout: 200, growth: 0.1, medianDifferenceMs: 20, medianRatio: 0.1 });
    expect(row.growthInterval).toEqual([0.1, 0.1]);
    // the growth is of the medians, not a median of the pages: here the three figures part
    const apart = costRow('set', [{ with: 100, without: 150 }, { with: 140, without: 100 }, { with: 300, without: 200 }], seededRandom(1), 200);
    expect(apart.growth).toBeCloseTo(140 / 150 - 1, 4);
    expect(apart.medianDifferenceMs).toBe(40);
    expect(apart.medianRatio).toBe(0.4);
  });
});
