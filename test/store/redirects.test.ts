/**
 * A URL's own article and its redirect record, both in the store (render deletes nothing at a
 * redirected URL's place): readThroughRedirect takes the newer, by the time the article's page was
 * stored against the time render followed the redirect. The embedded store on disk (FsStore), the
 * documents as apply and render write them.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FsStore } from '../../lib/store/fs-store';
import { keys, pageIdOf, siteOf } from '../../lib/store/keys';
import { readThroughRedirect, recordRedirect, type PageRef } from '../../lib/store/redirects';
import { getJson, putJson, type Store } from '../../lib/store/store';
import { ARTICLE_DOCUMENT_VERSION, ArticleDocumentSchema, type ArticleDocument } from '../../lib/types/article-document';
import { REDIRECT_RECORD_VERSION, type RedirectRecord } from '../../lib/types/redirect-record';

const refOf = (url: string): PageRef => ({ url, site: siteOf(url), pageId: pageIdOf(url) });
const SHORT = refOf('http://short.example/abc');
const LANDING = refOf('https://news.example.org/2026/story.html');

/** An article of a page, as apply writes it; `pageStoredAt` absent: one written before the field. */
function article(page: PageRef, times: { extractedAt: string; pageStoredAt?: string }, title: string): ArticleDocument {
  return ArticleDocumentSchema.parse({
    version: ARTICLE_DOCUMENT_VERSION, pageId: page.pageId, url: page.url, site: page.site, title,
    text: `${title}.`, html: `<p>${title}.</p>`, wordCount: 2, method: 'fallback', elapsedMs: 1, ...times,
  });
}
const record = (at: string): RedirectRecord => ({ version: REDIRECT_RECORD_VERSION, url: SHORT.url, to: { url: LANDING.url, site: LANDING.site, pageId: LANDING.pageId }, at });

let store: Store;
const read = (site: string, pageId: string) => getJson(store, keys.article(site, pageId), (v) => ArticleDocumentSchema.parse(v));
const through = () => readThroughRedirect(store, SHORT.site, SHORT.pageId, read);

beforeEach(async () => {
  store = new FsStore(await mkdtemp(path.join(os.tmpdir(), 'spider-redirects-')));
  await putJson(store, keys.article(LANDING.site, LANDING.pageId), article(LANDING, { extractedAt: '2026-11-28T12:00:05.000Z', pageStoredAt: '2026-11-28T12:00:04.000Z' }, 'Landing'));
});

describe('readThroughRedirect: a URL with its own article and a redirect record', () => {
  it('a record newer than the page its own article was extracted from: the landing page\'s article', async () => {
    // the URL had its own page (or an earlier version filed the landing page there), then redirected
    await putJson(store, keys.article(SHORT.site, SHORT.pageId), article(SHORT, { extractedAt: '2026-11-27T09:00:01.000Z', pageStoredAt: '2026-11-27T09:00:00.000Z' }, 'Old'));
    await putJson(store, keys.redirect(SHORT.site, SHORT.pageId), record('2026-11-28T12:00:03.000Z'));
    const found = await through();
    expect(found.value?.title).toBe('Landing');
    expect(found.redirect?.to.pageId).toBe(LANDING.pageId);
  });

  it('an old page extracted again after the record (a relearn of its site): still the record, by when the page was stored', async () => {
    await putJson(store, keys.article(SHORT.site, SHORT.pageId), article(SHORT, { extractedAt: '2026-11-29T08:00:00.000Z', pageStoredAt: '2026-11-27T09:00:00.000Z' }, 'Old, extracted again'));
    await putJson(store, keys.redirect(SHORT.site, SHORT.pageId), record('2026-11-28T12:00:03.000Z'));
    expect((await through()).value?.title).toBe('Landing');
  });

  it('an article written before pageStoredAt: its extractedAt stands in', async () => {
    await putJson(store, keys.article(SHORT.site, SHORT.pageId), article(SHORT, { extractedAt: '2026-11-27T09:00:01.000Z' }, 'Old'));
    await putJson(store, keys.redirect(SHORT.site, SHORT.pageId), record('2026-11-28T12:00:03.000Z'));
    expect((await through()).value?.title).toBe('Landing');
  });

  it('a URL that stopped redirecting: its own page, stored after the record, wins', async () => {
    await putJson(store, keys.redirect(SHORT.site, SHORT.pageId), record('2026-11-28T12:00:03.000Z'));
    await putJson(store, keys.article(SHORT.site, SHORT.pageId), article(SHORT, { extractedAt: '2026-11-30T10:00:01.000Z', pageStoredAt: '2026-11-30T10:00:00.000Z' }, 'Own again'));
    expect(await through()).toEqual({ value: expect.objectContaining({ title: 'Own again' }) });
  });

  it('a newer record whose landing page has no article yet: the record alone, not the older article', async () => {
    await store.delete(keys.article(LANDING.site, LANDING.pageId));
    await putJson(store, keys.article(SHORT.site, SHORT.pageId), article(SHORT, { extractedAt: '2026-11-27T09:00:01.000Z', pageStoredAt: '2026-11-27T09:00:00.000Z' }, 'Old'));
    await putJson(store, keys.redirect(SHORT.site, SHORT.pageId), record('2026-11-28T12:00:03.000Z'));
    const found = await through();
    expect(found.value).toBeUndefined();
    expect(found.redirect?.to.url).toBe(LANDING.url);
  });

  it('only one of them: that one', async () => {
    await putJson(store, keys.article(SHORT.site, SHORT.pageId), article(SHORT, { extractedAt: '2026-11-27T09:00:01.000Z', pageStoredAt: '2026-11-27T09:00:00.000Z' }, 'Own'));
    expect(await through()).toEqual({ value: expect.objectContaining({ title: 'Own' }) });
    await store.delete(keys.article(SHORT.site, SHORT.pageId));
    await putJson(store, keys.redirect(SHORT.site, SHORT.pageId), record('2026-11-28T12:00:03.000Z'));
    expect((await through()).value?.title).toBe('Landing');
  });
});

describe('recordRedirect', () => {
  it('writes the record and deletes nothing at the submitted URL\'s place; the record, newer, is what is read', async () => {
    const files = [keys.snapshot(SHORT.site, SHORT.pageId), keys.features(SHORT.site, SHORT.pageId)];
    for (const key of files) await store.put(key, 'x');
    await putJson(store, keys.article(SHORT.site, SHORT.pageId), article(SHORT, { extractedAt: new Date(Date.now() - 60_000).toISOString(), pageStoredAt: new Date(Date.now() - 61_000).toISOString() }, 'Old'));
    const written = await recordRedirect(store, SHORT, LANDING);
    expect(await getJson(store, keys.redirect(SHORT.site, SHORT.pageId), (v) => v)).toEqual(written);
    for (const key of [...files, keys.article(SHORT.site, SHORT.pageId)]) expect(await store.get(key), key).toBeDefined();
    expect((await through()).value?.title).toBe('Landing');
  });
});
