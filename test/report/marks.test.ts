import { describe, expect, it } from 'vitest';
import { BARE_PROSE_RULE, markPage } from '../../lib/report/marks';

const rules = (selectors: string[]) => ({ content: { selectors, dek: ['p.standfirst'], header: ['div.byline'], clean: ['p.ad'] } });
const page = `<html><body><h1>Headline</h1><p class="standfirst">The council delayed the harbour vote again.</p>
  <div class="byline">By Jane</div>
  <div class="body"><p>First paragraph of the story.</p><p class="ad">Buy now</p></div>
  <div class="empty"><p class="ad">Only an advert</p></div></body></html>`;

describe('markPage', () => {
  it('boxes the dek as the body\u2019s head, as apply takes it, and not on a page whose body has no text', () => {
    const taken = markPage(page, rules(['div.body > p']));
    expect(taken.marks.filter((m) => m.kind === 'body').map((m) => m.text)).toEqual(['The council delayed the harbour vote again.', 'First paragraph of the story.', 'Buy now']);
    expect(taken.marks.filter((m) => m.kind === 'header').map((m) => m.text)).toEqual(['By Jane']);
    expect(taken.marks.filter((m) => m.kind === 'clean').map((m) => m.text)).toEqual(['Buy now']);
    // the body selectors take only what the clean selectors remove: apply falls back, and takes no dek
    const empty = markPage(page, rules(['div.empty > p']));
    expect(empty.marks.filter((m) => m.kind === 'body').map((m) => m.text)).toEqual(['Only an advert']);
  });

  it('boxes the dek where the body\u2019s text is prose written bare between its elements, as apply takes it', () => {
    const bare = `<html><body><p class="standfirst">The council delayed the harbour vote again.</p>
      <div class="post"><p class="x"></p>Bare prose of the body that runs on for a good many words.<p class="x"></p></div></body></html>`;
    const marks = markPage(bare, rules(['div.post > p.x']));
    expect(marks.marks.filter((m) => m.kind === 'body').map((m) => m.text)[0]).toBe('The council delayed the harbour vote again.');
  });

  it('boxes prose written bare between two body elements as the run between them, and not a short bare label', () => {
    const bare = `<html><head></head><body><div class="post"><p class="x">First.</p>Bare prose of the body that runs on for a good many words.<hr><p class="x">Second.</p>Share this<p class="x">Third.</p></div></body></html>`;
    const body = markPage(bare, rules(['div.post > p.x'])).marks.filter((m) => m.kind === 'body');
    expect(body.map((m) => m.text)).toEqual(['First.', 'Bare prose of the body that runs on for a good many words.', 'Second.', 'Third.']);
    // from the first paragraph to the <hr>, which ends the run
    expect(body[1]).toMatchObject({ path: ':root > body:nth-child(2) > div:nth-child(1) > p:nth-child(1)', until: ':root > body:nth-child(2) > div:nth-child(1) > hr:nth-child(2)', rule: BARE_PROSE_RULE });
    expect(body.filter((m) => m.until !== undefined)).toHaveLength(1);
  });

  it('boxes a body line that shows the byline or the date the field rules read as that field, not as body, as apply leaves it out', () => {
    const dated = `<html><body><div class="post"><p><span class="when">Posted: March 12, 2009</span></p><p>First paragraph of the story.</p><p>Second paragraph.</p></div></body></html>`;
    const fields = {
      published: { rules: [{ kind: 'class' as const, value: 'when', selector: 'span.when', score: 1, support: 5 }], posts: 5 },
      training: { posts: 5, feedEntries: 0, fromFeed: 0, fromMetadata: 5 },
      minScore: 0.5,
    };
    const marks = markPage(dated, { content: { selectors: ['div.post > p'], clean: [] }, fields }).marks;
    expect(marks.filter((m) => m.kind === 'body').map((m) => m.text)).toEqual(['First paragraph of the story.', 'Second paragraph.']);
    expect(marks.filter((m) => m.kind === 'published').map((m) => m.text)).toEqual(['Posted: March 12, 2009']);
  });

  it('boxes what a clean selector removes from a run of bare prose', () => {
    const bare = `<html><head></head><body><div class="post"><p class="x">First.</p>Bare prose of the body that runs on for many words <span class="ad">Buy now</span> and more.<p class="x">Second.</p></div></body></html>`;
    const marks = markPage(bare, { content: { selectors: ['div.post > p.x'], clean: ['span.ad'] } }).marks;
    expect(marks.filter((m) => m.kind === 'clean').map((m) => m.path)).toEqual([':root > body:nth-child(2) > div:nth-child(1) > span:nth-child(2)']);
    expect(marks.find((m) => m.until)?.text).toBe('Bare prose of the body that runs on for many words and more.');
  });
});
