import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BARE_PROSE_RULE, markPage } from '../../lib/report/marks';
import { drawPage, launchReportBrowser } from '../../lib/report/picture';

// a post whose second paragraph is written bare between two of the body's elements, with an
// inline child positioned far below (the range's own box would stretch to it)
const snapshot = `<!doctype html><html><head></head><body style="margin:0;font:16px/20px serif">
<div class="post" style="width:600px">
<p class="x" style="margin:0;height:100px">First paragraph of the story, a short one.</p>
Bare prose of the body that runs on for a good many words, with <b>a bold part</b> in it.<img alt="" width="10" height="10" style="position:absolute;left:0;top:700px">
<hr style="margin:0;height:40px;border:0">
<p class="x" style="margin:0;height:100px">Second paragraph of the story.</p>
</div></body></html>`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchReportBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe('drawPage', () => {
  it('boxes prose written bare between two body elements where Chromium lays it out, between their boxes', { timeout: 60_000 }, async () => {
    const { marks } = markPage(snapshot, { content: { selectors: ['div.post > p.x'], clean: [] } });
    const picture = await drawPage(browser, { url: 'http://report.localhost/post', snapshot, viewport: { width: 800, height: 600 }, marks });
    expect(picture.unseen).toEqual([]);
    const [first, bare, second] = picture.boxes;
    expect(bare).toMatchObject({ kind: 'body', rule: BARE_PROSE_RULE, text: 'Bare prose of the body that runs on for a good many words, with a bold part in it.' });
    // the lines between the first paragraph and the <hr> above the second: the layout, not the font's
    const slack = 3;
    expect(bare.y).toBeGreaterThanOrEqual(first.y + first.height - slack);
    expect(bare.y).toBeLessThanOrEqual(first.y + first.height + slack);
    expect(bare.y + bare.height).toBeGreaterThanOrEqual(second.y - 40 - slack);
    expect(bare.y + bare.height).toBeLessThanOrEqual(second.y - 40 + slack);
    expect(bare.width).toBeGreaterThan(100);
    expect(bare.width).toBeLessThanOrEqual(600 + slack);
  });
});
