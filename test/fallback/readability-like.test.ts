import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../lib/html/parse';
import { extractReadabilityLike, readabilityAttempts } from '../../lib/fallback/readability-like';

const nav = '<ul class="nav"><li><a href="/">Home</a></li><li><a href="/crafts">Crafts</a></li><li><a href="/garden">Garden</a></li></ul>';

describe('the light Readability', () => {
  it('takes an article split into sections of its own, not only the best-scoring one', () => {
    const steps = [
      'Soak the foam in a bowl of water, then cut it to fit the saucer, leaving a finger of space all around.',
      'Dig a hole in the foam with a spoon, then set the plant in it, pressing the roots down gently.',
      'Add a second plant beside the first, then fill the gaps with moss, tucking it in with tweezers.',
      'Pin the moss around the foam with floral wire, then trim whatever hangs over the edge of the saucer.',
      'Lower the glass over the saucer, then wipe the fingerprints off, and set it somewhere out of the sun.',
    ];
    const html = `<html><body>${nav}<div class="main"><h1>How to Build a Terrarium</h1><div class="sections">${steps
      .map((s, i) => `<div class="step"><h2>Step ${i + 1}</h2><div class="text"><p>${s}</p></div></div>`)
      .join('')}</div><div class="aside"><a href="/a">Plant ideas</a> <a href="/b">Moss gardens</a></div></div></body></html>`;
    const r = extractReadabilityLike(parseHtml(html));
    for (const s of steps) expect(r.text).toContain(s);
    expect(r.text).not.toContain('Moss gardens');
  });

  it('leaves out a box of linked headlines with teasers inside the story, and keeps a paragraph ending on a link', () => {
    const story = [1, 2, 3, 4, 5, 6]
      .map((i) => `<p>Paragraph ${i} of the story: the city opened nine depots for old trees, which are chipped, and the chips are free, as the council said on Thursday.</p>`)
      .join('');
    const teasers = [1, 2, 3, 4]
      .map(
        (i) =>
          `<dt><a href="/news/${i}">Headline number ${i} about something else in the province</a></dt><dd>A teaser of the other story number ${i} that runs on for a line or so.</dd>`,
      )
      .join('');
    // a div used as a paragraph (inline content only), a third of it one link: prose, not a box of links
    const closing =
      '<div>The depots stay open until the twentieth of January, and the council asks that trees be left bare, without tinsel, lights or stands, and that nobody leaves bags of wrapping paper beside them. ' +
      'Read the council’s notice in full at <a href="/notice">the city’s website, on its page of notices for the holidays and the winter season</a></div>';
    const html = `<html><body>${nav}<div class="story"><h1>Undeck the halls</h1>${story}${closing}<div class="lineup"><h3>More headlines</h3><dl>${teasers}</dl></div></div></body></html>`;
    const r = extractReadabilityLike(parseHtml(html));
    expect(r.text).toContain('Paragraph 6 of the story');
    expect(r.text).toContain('Read the council’s notice in full');
    expect(r.text).not.toContain('Headline number 1');
    expect(r.text).not.toContain('A teaser of the other story');
  });

  it('never drops the container of its best candidate as a box of links, even when a fifth of its text is links', () => {
    // a blog post whose paragraphs link a lot, in wrappers that hold little else: the top climbs above them
    const para = (i: number) =>
      `<p>Paragraph ${i}: the company is counting on its new phone to revive sales this winter and the filing shows why, ` +
      `as <a href="/filing/${i}">the quarterly report filed with the regulator on Friday</a> makes plain to anyone who reads it.</p>`;
    const html = `<html><body>${nav}<div class="wrap"><h2 class="date">Sunday, October 14</h2><div class="item"><h3>Backward motion</h3><div class="words">${[1, 2, 3, 4]
      .map(para)
      .join('')}</div><div class="footer">Posted by the detective at noon</div></div></div></body></html>`;
    const r = extractReadabilityLike(parseHtml(html));
    for (const i of [1, 2, 3, 4]) expect(r.text).toContain(`Paragraph ${i}: the company`);
    // the strictest attempt (class weights, conditional cleaning) keeps them too, not only a relaxed one
    const [strict] = readabilityAttempts(parseHtml(html));
    const paragraphs = [1, 2, 3, 4].map((i) => para(i).replace(/<[^>]+>/g, '')).join('');
    expect(strict.chars).toBeGreaterThanOrEqual(paragraphs.length);
  });

  it("leaves out readers' comments beside the story's wrapper, where it climbed to take the headline", () => {
    // the story's paragraphs in a container, the headline and byline beside it in a wrapper; after the
    // wrapper, comments the page does not name as such: divs of inline text, each over 80 characters
    const story = [1, 2, 3, 4, 5]
      .map((i) => `<p>Paragraph ${i} of the story: the agency, which employs 140 people, was to move its offices to the east end of the city, and the minister must now decide.</p>`)
      .join('');
    const comments = [1, 2, 3]
      .map(
        (i) =>
          `<div class="meta">Posted by: reader ${i}, Glasgow on 9:35am</div><div class="entry">Comment ${i}: geography is never irrelevant, you have to employ people and find them somewhere to work, which the city offers.</div>`,
      )
      .join('');
    const html = `<html><body>${nav}<div class="page"><div class="story"><h1>Ministers face a dilemma</h1><p class="byline">By Kevin Schofield</p><div class="text">${story}</div></div><div class="share"><a href="/add">Add a comment</a></div>${comments}</div></body></html>`;
    const r = extractReadabilityLike(parseHtml(html));
    expect(r.text).toContain('Ministers face a dilemma');
    expect(r.text).toContain('By Kevin Schofield');
    expect(r.text).toContain('Paragraph 5 of the story');
    expect(r.text).not.toContain('Comment 1: geography');
    expect(r.text).not.toContain('Posted by');
    expect(r.text).not.toContain('Add a comment');
  });

  it('still joins the siblings of a bare wrapper around the story, which adds no text of its own', () => {
    const part = (n: number, i: number) =>
      `<p>Part ${n}, paragraph ${i}: the agency, which employs 140 people, was to move its offices to the east end of the city, and the minister must now decide.</p>`;
    const first = [1, 2, 3, 4, 5].map((i) => part(1, i)).join('');
    const second = [1, 2, 3].map((i) => part(2, i)).join('');
    const html = `<html><body>${nav}<div class="page"><h1>Ministers face a dilemma</h1><div class="wrap"><div class="text">${first}</div></div><div class="more">${second}</div></div></body></html>`;
    const r = extractReadabilityLike(parseHtml(html));
    expect(r.text).toContain('Part 1, paragraph 5');
    expect(r.text).toContain('Part 2, paragraph 3');
  });
});
