import { describe, expect, it } from 'vitest';
import { fetchPathVerdict, tokenF1 } from '../../lib/html/fetch-verdict';
import { parseHtml } from '../../lib/html/parse';

const rules = { content: { selectors: ['article > p'], clean: [] } };
const story = (n: number) => `<p>Story ${n} begins with a sentence long enough to count as prose for the reader.</p><p>It goes on for a while, number ${n}.</p>`;
const page = (body: string) => parseHtml(`<html><body><nav>Home</nav><article>${body}</article></body></html>`);

describe('fetchPathVerdict', () => {
  it('works when the rules give the same article on the served HTML as on the rendered page', () => {
    const pages = [1, 2, 3].map((n) => ({ pageId: `p${n}`, rendered: page(story(n)), served: page(story(n)) }));
    const v = fetchPathVerdict(rules, pages, 0.99, new Date(0));
    expect(v).toMatchObject({ works: true, pages: 3, minF1: 1, threshold: 0.99 });
    expect(v.worstPage).toBeUndefined();
  });
  it('does not work when a page gets its article from scripts (served HTML empty), and names that page', () => {
    const pages = [1, 2, 3].map((n) => ({ pageId: `p${n}`, rendered: page(story(n)), served: page(n === 2 ? '' : story(n)) }));
    const v = fetchPathVerdict(rules, pages, 0.99, new Date(0));
    expect(v).toMatchObject({ works: false, pages: 3, minF1: 0, worstPage: 'p2' });
  });
  it('names the same worst page whatever the order of the pages (of equals, the first by id)', () => {
    const pages = [3, 1, 2].map((n) => ({ pageId: `p${n}`, rendered: page(story(n)), served: page('') }));
    expect(fetchPathVerdict(rules, pages, 0.99, new Date(0)).worstPage).toBe('p1');
    expect(fetchPathVerdict(rules, [...pages].reverse(), 0.99, new Date(0)).worstPage).toBe('p1');
  });
  it('counts a page without served HTML as failing, and does not work when no page was checked', () => {
    expect(fetchPathVerdict(rules, [{ pageId: 'a', rendered: page(story(1)), served: undefined }], 0.99, new Date(0)).works).toBe(false);
    const none = fetchPathVerdict(rules, [{ pageId: 'a', rendered: page(''), served: page('') }], 0.99, new Date(0));
    expect(none).toMatchObject({ works: false, pages: 0 });
  });
});

describe('tokenF1', () => {
  it('is 1 for equal texts, 1 for two empty ones, and below 1 when words differ', () => {
    expect(tokenF1('a b c d e', 'a b c d e')).toBe(1);
    expect(tokenF1('', '')).toBe(1);
    expect(tokenF1('a b c d e f', 'a b c d x f')).toBeLessThan(1);
  });
});

describe('parseServedHtml', () => {
  it('builds the implied tbody a browser builds, so rules learned on the rendered tree match the served HTML', async () => {
    const { parseServedHtml } = await import('../../lib/html/parse');
    const html = '<html><body><table class="frame"><tr><td class="article-text"><p>Words of the story here and more words.</p></td></tr></table></body></html>';
    const rendered = parseHtml(html.replace('<tr>', '<tbody><tr>').replace('</tr>', '</tr></tbody>'));
    const tableRules = { content: { selectors: ['body > table.frame > tbody > tr > td.article-text > p'], clean: [] } };
    expect(fetchPathVerdict(tableRules, [{ pageId: 'a', rendered, served: parseHtml(html) }], 0.99, new Date(0)).works).toBe(false);
    expect(fetchPathVerdict(tableRules, [{ pageId: 'a', rendered, served: parseServedHtml(html) }], 0.99, new Date(0)).works).toBe(true);
  });
});
