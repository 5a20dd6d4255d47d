import { describe, expect, it } from 'vitest';
import { inRenderSample, routePage, type RouteInput } from '../../lib/step/route';
import { pageIdOf } from '../../lib/store/keys';

const works = { fetchPath: { works: true, pages: 5, minF1: 1, threshold: 0.99, checkedAt: '2026-11-25T00:00:00Z' } };
const base: RouteInput = { pageId: 'ffffffff00000000000a', enabled: true, sampleRate: 0.05, archived: false, renderAsked: false, rules: works };

describe('routePage', () => {
  it('fetches a page of a site whose rules work on the HTML as served', () => {
    expect(routePage(base).path).toBe('fetch');
  });
  it('renders when the fetch path is off, for an archived copy, without rules, when the rules do not work served, when the message asks for a render, and in the sample', () => {
    expect(routePage({ ...base, enabled: false }).path).toBe('render');
    expect(routePage({ ...base, archived: true }).path).toBe('render');
    expect(routePage({ ...base, rules: undefined }).path).toBe('render');
    expect(routePage({ ...base, rules: {} }).path).toBe('render');
    expect(routePage({ ...base, rules: { fetchPath: { ...works.fetchPath, works: false } } }).path).toBe('render');
    expect(routePage({ ...base, renderAsked: true }).path).toBe('render');
    expect(routePage({ ...base, pageId: '00000000ffffffffffff' }).path).toBe('render');
  });
  it("asks a site with no rules whose URLs redirect to other sites where a page leads; not when it has rules, and never when the fetch path is off, for an archived copy, or when a render is asked", () => {
    expect(routePage({ ...base, rules: undefined, redirects: true }).path).toBe('resolve');
    expect(routePage({ ...base, rules: undefined, redirects: false }).path).toBe('render');
    expect(routePage({ ...base, redirects: true }).path).toBe('fetch');
    expect(routePage({ ...base, rules: {}, redirects: true }).path).toBe('render');
    expect(routePage({ ...base, rules: undefined, redirects: true, enabled: false }).path).toBe('render');
    expect(routePage({ ...base, rules: undefined, redirects: true, archived: true }).path).toBe('render');
    expect(routePage({ ...base, rules: undefined, redirects: true, renderAsked: true }).path).toBe('render');
  });
});

describe('inRenderSample', () => {
  it('takes about the rate of pages, the same pages every time', () => {
    const ids = Array.from({ length: 4000 }, (_, i) => pageIdOf(`https://example.com/story/${i}`));
    const share = ids.filter((id) => inRenderSample(id, 0.05)).length / ids.length;
    expect(share).toBeGreaterThan(0.04);
    expect(share).toBeLessThan(0.06);
    expect(ids.filter((id) => inRenderSample(id, 0.05))).toEqual(ids.filter((id) => inRenderSample(id, 0.05)));
    expect(ids.some((id) => inRenderSample(id, 0))).toBe(false);
    expect(ids.every((id) => inRenderSample(id, 1))).toBe(true);
  });
});
