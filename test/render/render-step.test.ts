/**
 * The render step's checks before any browser work: a message may name only its own URL's archived
 * copy (never another stored object, such as a site's rules, to be rendered as a page).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import type { Renderer } from '../../lib/render/browser';
import { renderStep, type RenderContext } from '../../lib/render/render-step';
import { MemoryStore } from '../../lib/store/memory-store';
import { keys, pageIdOf, siteOf } from '../../lib/store/keys';
import { isNonRetryable } from '../../lib/util/errors';

describe('renderStep', () => {
  it('refuses an archiveKey that is not the archived copy of its own URL, before rendering', async () => {
    const store = new MemoryStore();
    const url = 'https://news.example/a';
    await store.put(keys.rules('news.example'), '{"secret":"rules"}');
    const renders: string[] = [];
    const renderer = { render: async (r: { url: string }) => void renders.push(r.url) } as unknown as Renderer;
    const ctx = { store, renderer, config: loadConfig({}), logger: console } as unknown as RenderContext;
    const error = await renderStep({ v: 1, url, archiveKey: keys.rules('news.example') }, ctx).catch((e: Error) => e);
    expect(isNonRetryable(error)).toBe(true);
    expect((error as Error).message).toContain(`is not the archived copy of ${url} (${keys.archive(siteOf(url), pageIdOf(url))})`);
    expect(renders).toEqual([]);
  });
});
