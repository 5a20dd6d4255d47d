import { describe, expect, it } from 'vitest';
import { ConfigSchema, type Config } from '../../lib/config/config';
import { learnStep } from '../../lib/learn/learn-step';
import type { Logger, StepContext } from '../../lib/step/context';
import type { QueueSender, Queues } from '../../lib/queue/queue';
import { keys } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import { putJson } from '../../lib/store/store';
import type { FeatureDocument } from '../../lib/types/feature-document';
import type { ApplyMessage } from '../../lib/types/messages';
import { RulesDocumentSchema, type DriftMarker, type RulesDocument } from '../../lib/types/rules-document';
import { newsPage } from './factory';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

function context(store: MemoryStore, config: Partial<Config> = {}) {
  const applied: ApplyMessage[] = [];
  const none: QueueSender<never> = { send: async () => {} };
  const queues = {
    render: none,
    learn: none,
    apply: { send: async (m: ApplyMessage) => void applied.push(m) },
  } as unknown as Queues;
  const ctx: StepContext = { store, queues, config: ConfigSchema.parse({ relearnAfter: 3, driftRelearnAfter: 2, learnPages: 5, ...config }), logger: quiet };
  return { ctx, applied };
}

/** Page i of the test news site, as render writes it, under example.com. */
async function addPage(store: MemoryStore, i: number): Promise<FeatureDocument> {
  const doc = { ...newsPage(i).doc, site: 'example.com' };
  await putJson(store, keys.features('example.com', doc.pageId), doc);
  return doc;
}

async function rulesOf(store: MemoryStore): Promise<RulesDocument> {
  const obj = await store.get(keys.rules('example.com'));
  return RulesDocumentSchema.parse(JSON.parse(obj!.body.toString('utf8')));
}

const tick = () => new Promise((r) => setTimeout(r, 5));
const learn = (ctx: StepContext, force = false) => learnStep({ v: 1, site: 'example.com', force }, ctx);

describe('learnStep', () => {
  it('counts pages rendered since the last learn, not every page outside the newest learnPages', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 8; i++) await addPage(store, i);
    const { ctx, applied } = context(store);
    const first = await learn(ctx);
    expect(first.learned).toBe(true);
    expect((await rulesOf(store)).learnedFrom).toHaveLength(5);
    expect(applied).toHaveLength(8);

    // 3 older pages are outside learnedFrom, but none is new: no relearn
    await tick();
    expect(await learn(ctx)).toMatchObject({ learned: false, reason: expect.stringContaining('0 new pages since rules v1') });

    for (let i = 8; i < 10; i++) await addPage(store, i);
    expect(await learn(ctx)).toMatchObject({ learned: false, reason: expect.stringContaining('2 new pages') });
    await addPage(store, 10);
    const again = await learn(ctx);
    expect(again.learned).toBe(true);
    expect((await rulesOf(store)).rulesVersion).toBe(2);
  });

  it('extracts the site again only when the new rules can extract differently', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 6; i++) await addPage(store, i);
    const { ctx, applied } = context(store, { learnPages: 50 });
    expect(await learn(ctx)).toMatchObject({ learned: true, reapplied: 6 });
    const v1 = await rulesOf(store);
    // the same pages again: the same selectors, a new version, nothing to extract again
    const same = await learn(ctx, true);
    expect(same).toMatchObject({ learned: true, reapplied: 0 });
    expect((await rulesOf(store)).rulesVersion).toBe(2);
    expect((await rulesOf(store)).content).toEqual(v1.content);
    expect(applied).toHaveLength(6);
  });

  it('relearns a site whose rules selected nothing on enough pages (drift), and clears the old markers', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 5; i++) await addPage(store, i);
    const { ctx } = context(store);
    await learn(ctx);
    const marker = (pageId: string, rulesVersion: number): DriftMarker => ({ version: 1, site: 'example.com', pageId, rulesVersion, at: new Date().toISOString() });

    await putJson(store, keys.drift('example.com', 'page-00'), marker('page-00', 1));
    await tick();
    expect(await learn(ctx)).toMatchObject({ learned: false, reason: expect.stringContaining('1 they selected nothing on') });

    await putJson(store, keys.drift('example.com', 'page-01'), marker('page-01', 1));
    const relearned = await learn(ctx);
    expect(relearned.learned).toBe(true);
    expect((await rulesOf(store)).rulesVersion).toBe(2);
    // markers of v1 say nothing about v2: removed
    expect(await store.list(keys.driftPrefix('example.com'))).toEqual([]);
    await tick();
    expect(await learn(ctx)).toMatchObject({ learned: false });
  });
});
