/** The fetch path's step (lib/step/fetch-step.ts) on a page served from 127.0.0.1: what it stores, and in what order. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../lib/config/config';
import type { Queues } from '../../lib/queue/queue';
import { silentLogger, type StepContext } from '../../lib/step/context';
import { fetchStep } from '../../lib/step/fetch-step';
import { keys, pageIdOf } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import { putJson } from '../../lib/store/store';
import { fetchRecordOf } from '../../lib/types/fetch-record';
import { parseServedHtml } from '../../lib/html/parse';
import { DomUtils } from 'htmlparser2';
import { fetchPathRules } from '../helpers/fetch-path-rules';
import { serveRoutes, type TestServer } from '../helpers/http-server';

const PAGE = '<html><head><title>A story</title></head><body><article><p>The story, as served.</p></article></body></html>';

let server: TestServer;
beforeAll(async () => {
  server = await serveRoutes({
    '/story': { body: PAGE },
    // a page of this site moved to another site's (any *.localhost name reaches this server)
    '/moved': (req) => ({ status: 301, body: '', headers: { location: `http://elsewhere.localhost:${new URL(`http://${req.headers.host}`).port}/story` } }),
  });
});
afterAll(() => server.close());

describe('fetchStep', () => {
  it("writes a fetched page's served.html, led by its record (its URL), before it sends the page to apply, and nothing else but the host's rate-limit slot", async () => {
    const url = `${server.origin}/story`;
    const site = '127.0.0.1';
    const pageId = pageIdOf(url);
    const store = new MemoryStore();
    await putJson(store, keys.rules(site), fetchPathRules(site));
    const events: string[] = [];
    const put = store.put.bind(store);
    store.put = async (key, ...rest) => {
      events.push(`put ${key}`);
      return put(key, ...rest);
    };
    const queues = {
      apply: { send: async () => void events.push('send apply') },
      render: { send: async () => void events.push('send render') },
    } as unknown as Queues;
    const config = ConfigSchema.parse({ allowHosts: [new URL(server.origin).host], hostIntervalMs: 0, renderSampleRate: 0 });
    const ctx: StepContext = { store, queues, config, logger: silentLogger };

    expect(await fetchStep({ v: 1, url }, ctx)).toMatchObject({ site, pageId, path: 'fetch' });

    const host = keys.hostState(new URL(url).hostname);
    expect(events.filter((e) => e !== `put ${host}`)).toEqual([`put ${keys.served(site, pageId)}`, 'send apply']);
    expect(events).toContain(`put ${host}`);
    const served = (await store.get(keys.served(site, pageId)))!.body;
    expect(fetchRecordOf(served)).toMatchObject({ version: 1, url });
    // the record is a comment before the page as served: the document parses as the page alone
    expect(served.toString('utf8').endsWith(PAGE)).toBe(true);
    const text = DomUtils.textContent(parseServedHtml(served));
    expect(text).toContain('The story, as served.');
    expect(text).not.toContain('spider:fetched');
  });

  it("sends a page a redirect took to another site to render, unchanged, and stores nothing of it: it is that site's page, not this one's", async () => {
    const url = `${server.origin}/moved`;
    const store = new MemoryStore();
    await putJson(store, keys.rules('127.0.0.1'), fetchPathRules('127.0.0.1'));
    const sent: { queue: string; body: unknown }[] = [];
    const queues = {
      apply: { send: async (body: unknown) => void sent.push({ queue: 'apply', body }) },
      render: { send: async (body: unknown) => void sent.push({ queue: 'render', body }) },
    } as unknown as Queues;
    const config = ConfigSchema.parse({ allowHosts: [new URL(server.origin).host, '*.localhost'], hostIntervalMs: 0, renderSampleRate: 0 });
    const message = { v: 1 as const, url, submittedAt: '2026-11-28T00:00:00.000Z' };

    const outcome = await fetchStep(message, { store, queues, config, logger: silentLogger });

    expect(outcome).toMatchObject({ path: 'render', reason: `redirected to another site (http://elsewhere.localhost:${new URL(server.origin).port}/story): rendered as that site's page` });
    expect(sent).toEqual([{ queue: 'render', body: message }]);
    expect((await store.list('pages/')).map((o) => o.key)).toEqual([]);
  });
});
