import { describe, expect, it } from 'vitest';
import { cleanTitle, extractMetadata, isAuthorMarked } from '../../lib/html/metadata';
import { elements, parseHtml } from '../../lib/html/parse';

const meta = (head: string, body = '', htmlAttrs = '') =>
  extractMetadata(parseHtml(`<!DOCTYPE html><html${htmlAttrs}><head>${head}</head><body>${body}</body></html>`));

describe('extractMetadata', () => {
  it('reads JSON-LD inside @graph, resolving the author by @id', () => {
    const m = meta(
      `<title>Ignored | Site</title><meta property="og:title" content="Og title">
       <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
         {"@type":"WebSite","@id":"#site","name":"Site"},
         {"@type":"Person","@id":"#jane","name":"Jane Doe"},
         {"@type":["NewsArticle"],"headline":"Graph headline &amp; more","author":{"@id":"#jane"},
          "datePublished":"2024-03-05T10:20:30+02:00","description":"Graph description","inLanguage":"en-GB"}]}</script>`,
    );
    expect(m).toMatchObject({
      title: 'Graph headline & more',
      byline: 'Jane Doe',
      published: '2024-03-05T08:20:30.000Z',
      lang: 'en-GB',
      excerpt: 'Graph description',
    });
  });

  it('takes several JSON-LD authors and skips a broken block', () => {
    const m = meta(
      `<script type="application/ld+json">{ broken</script>
       <script type="application/ld+json">[{"@type":"BlogPosting","headline":"H","author":[{"@type":"Person","name":"A"},"B","https://x.com/c"]}]</script>`,
    );
    expect(m.title).toBe('H');
    expect(m.byline).toBe('A, B');
  });

  it('falls back to Open Graph, meta author and article:published_time', () => {
    const m = meta(
      `<title>Page title - Example News</title>
       <meta property="og:title" content="An OG title">
       <meta name="author" content="By John Smith">
       <meta property="article:published_time" content="2012-10-28T12:48:00Z">
       <meta property="og:description" content="OG description">
       <meta name="description" content="Plain description">`,
      '',
      ' lang="fr"',
    );
    expect(m).toMatchObject({
      title: 'An OG title',
      byline: 'John Smith',
      published: '2012-10-28T12:48:00.000Z',
      lang: 'fr',
      excerpt: 'OG description',
    });
  });

  it('reads a byline as field learning reads its truth: the name alone, no "Posted by", date or e-mail address', () => {
    expect(meta('<meta name="author" content="Posted by Elinor Mills">').byline).toBe('Elinor Mills');
    expect(meta('<meta name="author" content="english@peopledaily.com.cn">').byline).toBeUndefined();
    expect(meta('', '<span class="byline">Orion Jones on November 8, 2012, 12:43 PM</span>').byline).toBe('Orion Jones');
    expect(meta('', '<div class="byline">| By Melissa Jenkins</div>').byline).toBe('Melissa Jenkins');
    // a line of its own is no part of the name: the role after it, the date after a <br>
    expect(meta('', '<div class="byline"><p>By Jane Doe</p><p>Staff Writer</p><script>var t = 1</script></div>').byline).toBe('Jane Doe');
    expect(meta('', '<div class="byline">By Greg Miller and Josh Meyer\n <br> April 17, 2009</div>').byline).toBe('Greg Miller and Josh Meyer');
  });

  it('reads the character references a page escaped twice in its metas, as a reader would (Readability unescapes them too)', () => {
    const m = meta(
      `<meta property="og:title" content="AT&amp;amp;T&amp;rsquo;s bet on R&amp;D"><meta name="author" content="Ren&amp;eacute;e Smith">
       <meta name="description" content="Terms&amp;notices &amp;amp; more">`,
      '<h1>AT&amp;T’s bet on R&amp;D</h1>',
    );
    expect(m).toMatchObject({ title: 'AT&T’s bet on R&D', byline: 'Renée Smith', excerpt: 'Terms&notices & more' });
    // a <title> escaped twice too; URLs stay as given
    const t = meta(
      `<title>Q&amp;amp;A: rates</title><meta name="spider:url" content="https://news.example/a?x=1&amp;amp;y=2"><link rel="canonical" href="https://news.example/a?x=1&amp;amp;y=2">`,
    );
    expect(t).toMatchObject({ title: 'Q&A: rates', spiderUrl: 'https://news.example/a?x=1&amp;y=2', canonical: 'https://news.example/a?x=1&amp;y=2' });
  });

  it('strips a " | Site" suffix from <title> when the h1 agrees', () => {
    expect(meta('<title>A Story About Things | The Daily Site</title>', '<h1>A Story About Things</h1>').title).toBe('A Story About Things');
    // "Site: Title" prefix
    expect(meta('<title>Daily: A Story About Things</title>', '<h1>A Story About Things</h1>').title).toBe('A Story About Things');
    // The h1 is the site's logo: keep the article side.
    expect(meta('<title>A Long Story About Many Things | Daily</title>', '<h1>Daily</h1>').title).toBe('A Long Story About Many Things | Daily');
    expect(meta('<title>Daily Planet | Q&A: Jobs report</title>', '<h1>Daily Planet</h1>').title).toBe('Daily Planet | Q&A: Jobs report');
    // Section names cut with the site's: together fewer words than the headline the h1 shows, separators not counted
    expect(meta('<title>Lawmakers Defend Earmarks in Spending Bill - Presidential Politics | Political News - Daily.com</title>', '<h1>Lawmakers Defend Earmarks in Spending Bill</h1>').title).toBe(
      'Lawmakers Defend Earmarks in Spending Bill',
    );
    // No h1 agreement: kept whole, unless the cut part is the site name.
    expect(meta('<title>Part one - part two</title>').title).toBe('Part one - part two');
    expect(meta('<title>Story - Example News</title><meta property="og:site_name" content="Example News">').title).toBe('Story');
  });

  it('takes the post title a heading shows over the blog\u2019s name in the h1 (Blogger: h1 blog, h3 post)', () => {
    const page = (t: string) => meta(`<meta name="spider:url" content="http://thefischbowl.blogspot.com/2012/10/x.html"><title>${t}</title>`, '<h1>The Fischbowl</h1><h2>Monday, October 1</h2><h3>Old School</h3>');
    expect(page('The Fischbowl: Old School').title).toBe('Old School');
    expect(page('Old School | The Fischbowl').title).toBe('Old School');
  });

  it('keeps the part of a many-part <title> the page shows in its text, not its masthead\u2019s name', () => {
    const body = '<div class="masthead">This is London</div><b>Big Brother bosses pin hopes on a new host</b><p>Story text here.</p>';
    expect(meta('<title>Big Brother bosses pin hopes on a new host - Showbiz - This is London</title>', body).title).toBe('Big Brother bosses pin hopes on a new host');
    // no part shown: kept whole
    expect(meta('<title>Showbiz news today | Evening paper</title>', body).title).toBe('Showbiz news today | Evening paper');
  });

  it('prefers the <title> a heading shows over an og:title no heading shows (a site-wide og:title)', () => {
    const m = meta(
      '<meta property="og:title" content="Official Blog of the National Football League"><title>Matt Ryan focused on record - NFL.com</title>',
      '<h1>NFL Blogs</h1><h2>Matt Ryan focused on record</h2>',
    );
    expect(m.title).toBe('Matt Ryan focused on record');
    // no heading shows either: the og:title, as before
    expect(meta('<meta property="og:title" content="Og Title Here"><title>Other Title Here</title>').title).toBe('Og Title Here');
  });

  it('takes no title longer than a headline can be: a meta left open that swallowed the page\u2019s script up to the next quote', () => {
    const script = Array.from({ length: 40 }, (_, i) => `this.sectionLevel${i} = 'sports';`).join('\n');
    const head = `<meta name="title" content="Welcome to The Free Press -- News, Sports, Ente 'freepress';\n${script}\nthis.articlename = 'Slammer for Rammer'; ">`;
    const m = meta(head, '<h1>Slammer for Rammer</h1><p>The story.</p>');
    expect(m.title).toBe('Slammer for Rammer');
    // a long title the page gives otherwise is still read, as long as a headline can be
    const long = `${'A headline that runs on and on '.repeat(12)}to the end`;
    expect(long.length).toBeLessThanOrEqual(400);
    expect(meta(`<title>${long}</title>`, '<h1>Site</h1>').title).toBe(long);
  });

  it('uses <time datetime> and <html lang>, and the spider:url meta', () => {
    const m = meta(
      '<meta name="spider:url" content="https://example.com/a"><title>T</title>',
      '<p>Posted <time datetime="2013-01-02">Jan 2</time></p>',
      ' lang="de-DE"',
    );
    expect(m).toMatchObject({ title: 'T', published: '2013-01-02', lang: 'de-DE', spiderUrl: 'https://example.com/a' });
  });

  it('takes the day the page\'s URL names for its date when nothing else gives one', () => {
    const at = (url: string, body = '') => meta(`<meta name="spider:url" content="${url}"><title>T</title>`, body).published;
    expect(at('https://news.example/2026/03/14/bridge.html')).toBe('2026-03-14');
    // the page's own date first, though its URL names another day (a post updated since, or filed late)
    expect(at('https://news.example/2026/03/14/bridge.html', '<time datetime="2026-03-15T08:00:00Z">Mar 15</time>')).toBe('2026-03-15T08:00:00.000Z');
    expect(at('https://news.example/2026/03/bridge.html')).toBeUndefined();
    // the canonical link's, without a render's URL; the URL given (the fetch path's message) before either
    expect(meta('<link rel="canonical" href="https://news.example/2013-11-12-story"><title>T</title>').published).toBe('2013-11-12');
    const doc = parseHtml('<html><head><meta name="spider:url" content="https://news.example/2013/11/12/a"></head><body></body></html>');
    expect(extractMetadata(doc, { baseUrl: 'https://news.example/2020/01/05/a' }).published).toBe('2020-01-05');
  });

  it('tells an author-marked element of the story from one of its discussion (isAuthorMarked)', () => {
    const marked = (html: string, attrs = '') => {
      const doc = parseHtml(`<html><body${attrs}>${html}</body></html>`);
      return [...elements(doc)].filter((el) => el.attribs.id === 'x').map(isAuthorMarked)[0];
    };
    expect(marked('<span id="x" class="author vcard">Jane</span>')).toBe(true);
    expect(marked('<a id="x" rel="author" href="/jane">Jane</a>')).toBe(true);
    expect(marked('<span id="x" class="posted-on">Jane</span>')).toBe(false);
    expect(marked('<div class="comment-body"><span id="x" class="author">Bob</span></div>')).toBe(false);
    // a site-wide flag on <body> or <html> is no discussion, nor a URL an SVG text names
    expect(marked('<span id="x" class="author">Jane</span>', ' class="feature_newcomments"')).toBe(true);
    expect(marked('<svg><text id="http://example.com/discusses"><tspan id="x" class="author">Jane</tspan></text></svg>')).toBe(true);
  });

  it('strips the host name from a title when nothing else says what the site is', () => {
    expect(meta('<meta name="spider:url" content="https://slashdot.org/story/1"><title>Judge Says Things - Slashdot</title>').title).toBe('Judge Says Things');
  });

  it('reads the lead image the page names for sharing, made absolute against the page, and the publication\u2019s name', () => {
    const page = '<meta name="spider:url" content="https://news.example/2024/a.html">';
    const og = meta(`${page}<meta property="og:image" content="/img/lead.jpg?w=1&amp;h=2"><meta name="twitter:image" content="https://cdn.example/t.jpg"><meta property="og:site_name" content="Example News">`);
    expect(og).toMatchObject({ image: 'https://news.example/img/lead.jpg?w=1&h=2', siteName: 'Example News' });
    // a JSON-LD ImageObject named by @id, and the article's publisher where no og:site_name names the site
    const ld = meta(
      `${page}<script type="application/ld+json">{"@graph":[{"@type":"ImageObject","@id":"#lead","url":"https://cdn.example/ld.jpg"},
        {"@type":"NewsArticle","headline":"H","image":[{"@id":"#lead"}],"publisher":{"@type":"Organization","name":"The Example Times"}}]}</script>`,
    );
    expect(ld).toMatchObject({ image: 'https://cdn.example/ld.jpg', siteName: 'The Example Times' });
    // what no reader can fetch is no image: a data: URL gives way to the next candidate, here image_src
    const data = meta(`${page}<meta property="og:image" content="data:image/png;base64,AAAA"><link rel="image_src" href="lead.png">`);
    expect(data.image).toBe('https://news.example/2024/lead.png');
    // a relative URL with no page URL to resolve it against is left out; an absolute one needs none
    expect(meta('<meta property="og:image" content="/img/lead.jpg">').image).toBeUndefined();
    expect(meta('<link rel="canonical" href="/2024/a.html"><meta property="og:image" content="https://c.example/abs.jpg">').image).toBe('https://c.example/abs.jpg');
    // a meta's URL as the parser read it (its references read once), a JSON-LD one as a reader would
    expect(meta(`${page}<meta property="og:image" content="/i.jpg?t=&amp;lt;">`).image).toBe('https://news.example/i.jpg?t=&lt;');
    // the first usable of a JSON-LD list, and an ImageObject's contentUrl where its url is empty
    expect(meta(`${page}<script type="application/ld+json">{"@type":"Article","image":["", "data:image/png;base64,AA", "https://c.example/2.jpg?a=1&amp;b=2"]}</script>`).image).toBe('https://c.example/2.jpg?a=1&b=2');
    expect(meta(`${page}<script type="application/ld+json">{"@type":"Article","image":{"url":"","contentUrl":"https://c.example/3.jpg"}}</script>`).image).toBe('https://c.example/3.jpg');
    // the page's URL given by its reader (the fetch path's message) wins over the page's own metas
    const given = extractMetadata(parseHtml(`<head>${page}<meta property="og:image" content="lead.jpg"></head>`), { baseUrl: 'https://other.example/b/c' });
    expect(given.image).toBe('https://other.example/b/lead.jpg');
  });

  it('returns nothing for a bare page', () => {
    expect(meta('')).toEqual({});
  });
});

describe('cleanTitle', () => {
  it('leaves a title without separators alone', () => {
    expect(cleanTitle('Plain title', ['Other'])).toBe('Plain title');
  });
  it('keeps a title equal to the h1 whole', () => {
    expect(cleanTitle('Q&A - the answers', ['Q&A - the answers'])).toBe('Q&A - the answers');
  });
});
