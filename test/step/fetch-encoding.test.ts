/**
 * Pages in legacy encodings on the fetch path, served from 127.0.0.1: the fetch step stores their
 * HTML as served as the text a browser reads (the charset named by a <meta charset>, a <meta
 * http-equiv>, the Content-Type, or a BOM over all of them), apply extracts the right characters
 * from it, and the stored bytes read as UTF-8 to a reader that sniffs them as a browser does.
 */
import htmlEncodingSniffer from 'html-encoding-sniffer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyStep, clearRulesCache } from '../../lib/apply/apply-step';
import { ConfigSchema } from '../../lib/config/config';
import type { Queues } from '../../lib/queue/queue';
import { silentLogger, type StepContext } from '../../lib/step/context';
import { fetchStep } from '../../lib/step/fetch-step';
import { keys, pageIdOf } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import { putJson } from '../../lib/store/store';
import type { ApplyMessage } from '../../lib/types/messages';
import { fetchPathRules } from '../helpers/fetch-path-rules';
import { serveRoutes, type TestServer } from '../helpers/http-server';
import { ENCODED_PAGES, type EncodedPage } from '../helpers/encoded-pages';

let server: TestServer;
beforeAll(async () => {
  server = await serveRoutes(Object.fromEntries(ENCODED_PAGES.map((p) => [`/${p.name}`, { type: p.contentType, body: p.bytes }])));
});
afterAll(() => server.close());

describe('the fetch path on pages in legacy encodings', () => {
  it.each(ENCODED_PAGES.map((p) => [p.name, p] as const))('%s: served.html and the article hold the page\'s characters', async (_name, page: EncodedPage) => {
    clearRulesCache();
    const url = `${server.origin}/${page.name}`;
    const site = '127.0.0.1';
    const pageId = pageIdOf(url);
    const store = new MemoryStore();
    await putJson(store, keys.rules(site), fetchPathRules(site));
    const applies: ApplyMessage[] = [];
    const queues = {
      apply: { send: async (m: ApplyMessage) => void applies.push(m) },
      render: { send: async () => undefined },
      learn: { send: async () => undefined },
    } as unknown as Queues;
    const config = ConfigSchema.parse({ allowHosts: [new URL(server.origin).host], hostIntervalMs: 0, renderSampleRate: 0 });
    const ctx: StepContext = { store, queues, config, logger: silentLogger };

    expect(await fetchStep({ v: 1, url }, ctx)).toMatchObject({ path: 'fetch' });

    // served.html: UTF-8, read by spider's readers as UTF-8...
    const stored = (await store.get(keys.served(site, pageId)))!.body;
    const text = new TextDecoder('utf-8').decode(stored);
    expect(text).toContain(page.title);
    for (const paragraph of page.paragraphs) expect(text).toContain(paragraph);
    // ...and by a reader that sniffs its bytes as a browser does, with no Content-Type to go by:
    // neither the page's own <meta charset>, kept in its text, nor its having none (its charset was
    // in the Content-Type) misleads it
    expect(htmlEncodingSniffer(stored)).toBe('UTF-8');

    // apply, on what the fetch step stored: the article holds the page's characters
    expect(applies).toHaveLength(1);
    const article = await applyStep(applies[0], ctx);
    expect(article).toMatchObject({ path: 'fetch', method: 'rules', title: page.title });
    for (const paragraph of page.paragraphs) expect(article.text).toContain(paragraph);
  });
});
