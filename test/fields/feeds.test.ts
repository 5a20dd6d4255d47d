/** Feeds: RSS 2.0, RSS 1.0 and Atom entries; fetching with a timeout and a size cap; render's refresh policy. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateSite } from '../../lib/demo/index';
import { clearFeedAttempts, refreshFeeds } from '../../lib/fields/feed-refresh';
import { parseFeed } from '../../lib/fields/feeds';
import { fetchFeed } from '../../lib/net/feed-fetch';
import { FeedIndex, descriptionValues, feedValues, introducedByline, markedAuthorNames, metadataValues, permalinkKey, postValues, publisherOf, siteAuthor, titleValues } from '../../lib/fields/sources';
import { extractMetadata } from '../../lib/html/metadata';
import { parseHtml } from '../../lib/html/parse';
import { silentLogger } from '../../lib/step/context';
import { feedIdOf, keys } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import type { PageMetadata } from '../../lib/types/feature-document';

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0">
<channel><title>A Blog</title>
<item><title>First &amp; foremost</title><link>http://feeds.example/~r/blog/1</link><feedburner:origLink>https://www.blog.example/2012/11/first/</feedburner:origLink>
<dc:creator>Jane Doe</dc:creator><pubDate>Tue, 06 Nov 2012 15:08:00 +0000</pubDate><description>&lt;p&gt;The &lt;b&gt;summary&lt;/b&gt;.&lt;/p&gt;</description></item>
<item><title><![CDATA[Second <post>]]></title><guid isPermaLink="true">https://blog.example/2012/11/second</guid><author>john@blog.example (John Roe)</author><pubDate>Wed, 07 Nov 2012 09:00:00 GMT</pubDate></item>
</channel></rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Blog</title><author><name>Site Author</name></author>
<entry><title type="html">An &lt;em&gt;Atom&lt;/em&gt; entry</title><link rel="alternate" href="https://atom.example/a"/><link rel="replies" href="https://atom.example/a#comments"/>
<author><name>Ann Smith</name></author><published>2012-11-06T20:38:37+05:30</published><updated>2012-11-07T00:00:00Z</updated><summary>Short.</summary></entry>
<entry><title>No author here</title><link href="https://atom.example/b"/><updated>2012-11-08T00:00:00Z</updated></entry>
</feed>`;

const RDF = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://rdf.example/"><title>RDF</title></channel>
<item rdf:about="https://rdf.example/x"><title>RDF item</title><link>https://rdf.example/x</link><dc:creator>Bo Ek</dc:creator><dc:date>2012-11-06</dc:date></item>
</rdf:RDF>`;

describe('parseFeed', () => {
  it('reads RSS 2.0 items: title, dc:creator or author, pubDate, summary as text, permalinks', () => {
    const feed = parseFeed(RSS)!;
    expect(feed.type).toBe('rss');
    expect(feed.title).toBe('A Blog');
    expect(feed.entries[0]).toEqual({
      title: 'First & foremost',
      author: 'Jane Doe',
      published: 'Tue, 06 Nov 2012 15:08:00 +0000',
      summary: 'The summary.',
      links: ['https://www.blog.example/2012/11/first/', 'http://feeds.example/~r/blog/1'],
    });
    expect(feed.entries[1]).toMatchObject({ title: 'Second <post>', author: 'john@blog.example (John Roe)', links: ['https://blog.example/2012/11/second'] });
    expect(feedValues(feed.entries[1]).byline).toBe('John Roe');
  });

  it('reads Atom entries (alternate links, entry or feed author) and RSS 1.0 items', () => {
    const atom = parseFeed(ATOM)!;
    expect(atom.type).toBe('atom');
    expect(atom.entries[0]).toMatchObject({ title: 'An Atom entry', author: 'Ann Smith', published: '2012-11-06T20:38:37+05:30', links: ['https://atom.example/a'] });
    expect(atom.entries[1]).toMatchObject({ author: 'Site Author', published: '2012-11-08T00:00:00Z' });
    const rdf = parseFeed(RDF)!;
    expect(rdf.type).toBe('rdf');
    expect(rdf.entries).toEqual([{ title: 'RDF item', author: 'Bo Ek', published: '2012-11-06', links: ['https://rdf.example/x'] }]);
  });

  it('reads the generated site feed, and is undefined for anything that is not a feed', () => {
    const site = generateSite({ seed: 'feeds', pagesPerTemplate: 3, templates: 3 });
    const feed = parseFeed(site.files.get('/feed.xml')!.body as string)!;
    const truths = site.pages.filter((p) => p.inFeed);
    expect(feed.entries).toHaveLength(truths.length);
    expect(feed.entries[0].title).toBe(truths[0].title);
    expect(feed.entries[0].author).toBe(truths[0].byline);
    expect(new Date(feed.entries[0].published!).toISOString().replace('.000', '')).toBe(truths[0].published);
    expect(parseFeed('<html><body>not a feed</body></html>')).toBeUndefined();
    expect(parseFeed('')).toBeUndefined();
  });
});

describe('matching feed entries to pages', () => {
  it('by permalink: scheme, www., trailing slash and fragment do not matter; FeedBurner origLink counts', () => {
    expect(permalinkKey('https://www.Blog.example/a/b/#x')).toBe(permalinkKey('http://blog.example/a/b'));
    const index = new FeedIndex(parseFeed(RSS)!.entries);
    expect(index.find(['http://blog.example/2012/11/first'])?.title).toBe('First & foremost');
    expect(index.find(['https://blog.example/2012/11/second/'])?.title).toBe('Second <post>');
    expect(index.find(['https://blog.example/2012/11/third'])).toBeUndefined();
  });

  it("by permalink: a feed link's tracking parameters do not matter (a page's URL has none); other parameters do", () => {
    const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>A Blog</title>
<item><title>Third</title><link>https://blog.example/2012/11/third?utm_source=rss&amp;utm_medium=rss&amp;utm_campaign=third</link></item>
<item><title>Story 2</title><link>https://blog.example/story?id=2&amp;fbclid=x</link></item></channel></rss>`;
    const index = new FeedIndex(parseFeed(feed)!.entries);
    expect(index.find(['https://blog.example/2012/11/third'])?.title).toBe('Third');
    expect(index.find(['https://blog.example/story?id=2'])?.title).toBe('Story 2');
    expect(index.find(['https://blog.example/story?id=3'])).toBeUndefined();
    expect(permalinkKey('https://blog.example/a?b=1&')).toBe('blog.example/a?b=1&');
  });

  it('a page takes the feed values first and its own metadata for the rest', () => {
    const page: PageMetadata = {
      title: 'First | A Blog',
      ogTitle: 'First (og)',
      author: 'https://facebook.com/jane',
      published: '2012-11-06',
      jsonLd: [],
      feeds: [],
      canonical: 'https://blog.example/2012/11/first/',
    };
    expect(metadataValues(page)).toEqual({ title: 'First (og)', published: '2012-11-06' });
    const got = postValues({ url: 'https://blog.example/2012/11/first?utm=x', finalUrl: 'https://blog.example/2012/11/first?utm=x', page }, new FeedIndex(parseFeed(RSS)!.entries));
    expect(got.values).toEqual({ title: 'First & foremost', byline: 'Jane Doe', published: 'Tue, 06 Nov 2012 15:08:00 +0000' });
    expect(got.sources).toEqual({ title: 'feed', byline: 'feed', published: 'feed' });
    const jsonLd = metadataValues({ ...page, jsonLd: [{ type: 'NewsArticle', headline: 'LD headline', author: ['A One', 'B Two'], datePublished: '2012-11-05' }] });
    expect(jsonLd).toEqual({ title: 'LD headline', byline: 'A One, B Two', published: '2012-11-05' });
    // character references left in a value (a JSON-LD string, a meta escaped twice) are read, as the article's metadata reads them
    const escaped = { ...page, ogTitle: 'AT&amp;T&rsquo;s bet', author: 'Ren&eacute;e Smith', description: 'R&amp;D &amp; more' };
    expect(metadataValues(escaped)).toMatchObject({ title: 'AT&T\u2019s bet', byline: 'Ren\u00e9e Smith' });
    expect(titleValues(escaped)).toContain('AT&T\u2019s bet');
    expect(descriptionValues(escaped)).toEqual(['R&D & more']);
  });

  it('a byline no feed entry or metadata gives: the page markup\'s, else Readability\'s where an author-marked element reads so', () => {
    const page: PageMetadata = { title: 'A post', jsonLd: [], feeds: [] };
    const url = 'https://news.example/us/bus-hits-overpass';
    const readability = (byline: string) => ({ version: 1 as const, ok: true, byline, length: 1000, marked: 10 });
    const valuesOf = (html: string, byline: string) => {
      const doc = parseHtml(`<html><body>${html}<p>Body text.</p></body></html>`);
      return postValues({ url, finalUrl: url, page, readability: readability(byline) }, undefined, {}, { markup: extractMetadata(doc, { title: false }).byline, marked: markedAuthorNames(doc) });
    };
    // Readability's byline, from an element of an author class: the name in it
    expect(valuesOf('<div class="entry-meta">Posted by <span class="author vcard">Jane Osei</span> on March 3</div>', 'Jane Osei')).toEqual({ values: { byline: 'Jane Osei' }, sources: { byline: 'readability' } });
    expect(valuesOf('<p id="post-byline">By Jane Osei | Updated March 3, 2013</p>', 'By Jane Osei | Updated March 3, 2013').values).toEqual({ byline: 'Jane Osei' });
    // a dateline, which Readability takes for a byline too, is no author's element: no value
    expect(valuesOf('<span class="dateline">BOSTON</span>', 'BOSTON').values).toEqual({});
    // a date left where a name should be is no name
    expect(valuesOf('<span class="author-date">January 18, 2008</span>', 'January 18, 2008').values).toEqual({});
    // the comment form's label and a commenter's name, which Readability may take: the page's discussion is no byline
    expect(valuesOf('<form id="commentform"><p class="comment-form-author"><label>Name</label> <span class="required">*</span><input name="author"></p></form>', 'Name *').values).toEqual({});
    expect(valuesOf('<form><p class="form-author"><label>Name</label><input name="author"></p></form>', 'Name').values).toEqual({});
    expect(valuesOf('<ol class="commentlist"><li><div class="comment-author vcard">Bob Smith</div><p>Nice.</p></li></ol>', 'Bob Smith').values).toEqual({});
    expect(valuesOf('<section id="comments"><div class="author">Bob Smith</div><p>Nice.</p></section>', 'Bob Smith').values).toEqual({});
    expect(valuesOf('<div class="author-link">View all posts by Jane Osei \u2192</div>', 'View all posts by Jane Osei \u2192').values).toEqual({});
    // each check alone: a form a reader fills in, a form control in the element
    expect(valuesOf('<form action="/subscribe"><div class="author">Jane Osei</div></form>', 'Jane Osei').values).toEqual({});
    expect(valuesOf('<div class="author">Jane Osei <input type="checkbox"></div>', 'Jane Osei').values).toEqual({});
    // but a form around the whole page (ASP.NET's) holds the story: its author element counts
    expect(valuesOf('<form id="aspnetForm"><h1>Story</h1><span class="author">Jane Osei</span></form>', 'Jane Osei').values).toEqual({ byline: 'Jane Osei' });
    // a date the markup's byline element holds is no name either
    expect(valuesOf('<div class="byline">Thu Apr 2, 1:08</div>', 'Thu Apr 2, 1:08').values).toEqual({});
    // what the markup names as the author (rel=author) comes before Readability's reading of the same line
    const both = valuesOf('<p class="byline"><a rel="author" href="/matt">Matt Tschoegl</a></p><div id="author-link">View all posts by Matt Tschoegl \u2192</div>', 'View all posts by Matt Tschoegl \u2192');
    expect(both).toEqual({ values: { byline: 'Matt Tschoegl' }, sources: { byline: 'metadata' } });
    // and the page's metadata before either
    expect(postValues({ url, finalUrl: url, page: { ...page, author: 'Ann Lee' }, readability: readability('Jane Osei') }, undefined, {}, { marked: ['Jane Osei'] }).values).toEqual({ byline: 'Ann Lee' });
    // without the page's author-marked names, Readability's byline is not taken
    expect(postValues({ url, finalUrl: url, page, readability: readability('Jane Osei') }).values).toEqual({});
  });

  it('an author the metadata names on every page while the pages\' bylines name others is the publisher: the byline the page shows is the post\'s', () => {
    const page = (author: string): PageMetadata => ({ title: 'A story', author, jsonLd: [], feeds: [] });
    const url = 'https://news.example/story';
    const shown = (html: string) => introducedByline(parseHtml(`<html><body><h1>A story</h1>${html}<p>Body text.</p></body></html>`));
    const stories = [
      shown('<div class="byline">By RUSSELL GOLDMAN and DAN HARRIS</div>'),
      shown('<div class="byline">By Christina Ng</div>'),
      shown('<div class="byline">By ABC NEWS</div>'),
      // a dateline where the byline stands: no name introduced
      shown('<div class="byline_date">WESTPORT, Wash. July 24, 2012 (AP)</div>'),
      // the page's own byline names the publisher; a teaser's author class further down is not the page's
      shown('<div class="byline">By ABC News</div><aside><span class="author">By Jane Teaser</span></aside>'),
      shown(''),
    ];
    expect(stories).toEqual(['RUSSELL GOLDMAN and DAN HARRIS', 'Christina Ng', 'ABC NEWS', undefined, 'ABC News', undefined]);
    const pages = stories.map(() => page('ABC News'));
    expect(siteAuthor(pages)).toBe('ABC News');
    const publisher = publisherOf(siteAuthor(pages), stories);
    expect(publisher).toBe('ABC News');
    const bylines = stories.map((introduced, i) => postValues({ url, finalUrl: url, page: pages[i] }, undefined, {}, { introduced, publisher }).values.byline);
    // the byline the page shows where it names someone; the metadata's where it names the publisher or no one
    expect(bylines).toEqual(['RUSSELL GOLDMAN and DAN HARRIS', 'Christina Ng', 'ABC NEWS', 'ABC News', 'ABC News', 'ABC News']);

    // a single author's blog names that author on every post, in its metadata and its bylines: no publisher
    const blog = ['By Jane Osei', 'By Jane Osei', 'By Jane Osei'].map((b) => shown(`<span class="author">${b}</span>`));
    expect(publisherOf(siteAuthor([page('Jane Osei'), page('Jane Osei'), page('Jane Osei')]), blog)).toBeUndefined();
    // one guest post is not enough to call the site's author a publisher; nor are datelines
    expect(publisherOf('Jane Osei', [...blog, 'Guest Writer'])).toBeUndefined();
    expect(publisherOf('ABC News', ['Christina Ng', shown('<div class="byline">BOSTON</div>'), shown('<div class="byline">AUSTIN, Texas</div>')])).toBeUndefined();
    // fewer than three pages, or authors that differ: no site author
    expect(siteAuthor([page('ABC News'), page('ABC News')])).toBeUndefined();
    expect(siteAuthor([page('ABC News'), page('ABC News'), page('Christina Ng')])).toBeUndefined();
  });

  it('a date no feed entry or metadata gives: the day the page\'s URL names, year first', () => {
    const page: PageMetadata = { title: 'A post', jsonLd: [], feeds: [] };
    const at = (url: string, finalUrl = url) => postValues({ url, finalUrl, page });
    expect(at('https://news.example/2026/03/14/bridge.html')).toEqual({ values: { published: '2026-03-14' }, sources: { published: 'url' } });
    expect(at('https://news.example/s/ap/20090403/as_nkorea').values).toEqual({ published: '2009-04-03' });
    expect(at('https://news.example/news/2009-4-3-bridge').values).toEqual({ published: '2009-04-03' });
    // the page's URL after redirects is the one that names it
    expect(at('https://t.example/x', 'https://news.example/2020/1/5/a').values).toEqual({ published: '2020-01-05' });
    // a month without a day, a day that is not one, a number that is no date, a date in the query: none
    // nor a number that starts a post's name after its month (/2019/07/10-things), nor an id whose digits are no day
    for (const url of ['https://news.example/2013/11/boston', 'https://news.example/2012/02/30/x', 'https://news.example/item/20101340', 'https://news.example/story?d=2020/01/05', 'https://news.example/2019/07/10-things-to-do', 'https://news.example/2013/11/12345/', 'https://news.example/1989/03/14/a'])
      expect(at(url).values, url).toEqual({});
    // the page's metadata first
    expect(postValues({ url: 'https://news.example/2026/03/14/a', finalUrl: 'https://news.example/2026/03/14/a', page: { ...page, published: '2026-03-15T08:00:00Z' } }).values).toEqual({ published: '2026-03-15T08:00:00Z' });
  });
});

describe('fetchFeed', () => {
  let server: http.Server;
  let origin: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/feed.xml') res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(RSS);
      else if (path === '/latin1.xml') {
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end(Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>Caf\xe9</title></item></channel></rss>', 'latin1'));
      } else if (path === '/bom.xml') {
        // UTF-8 by its byte order mark, whatever its declaration and its Content-Type say
        res.writeHead(200, { 'content-type': 'text/xml; charset=iso-8859-1' });
        res.end(Buffer.from('\ufeff<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>Café 東京</title></item></channel></rss>', 'utf8'));
      } else if (path === '/slow.xml') setTimeout(() => res.writeHead(200).end(RSS), 2000).unref();
      else if (path === '/huge.xml') {
        // no content-length: the cap must stop the stream
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        const push = () => {
          while (sent < 50 && res.write(chunk)) sent++;
          if (sent < 50) res.once('drain', push);
          else res.end();
        };
        push();
      } else if (path === '/declared-huge.xml') res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).end();
      else res.writeHead(404).end('no');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('returns the body and content type', async () => {
    const got = await fetchFeed(`${origin}/feed.xml`);
    expect(got.status).toBe(200);
    expect(got.contentType).toBe('application/rss+xml');
    expect(parseFeed(got.body)?.entries).toHaveLength(2);
    expect(parseFeed((await fetchFeed(`${origin}/latin1.xml`)).body)?.entries[0].title).toBe('Café');
    expect(parseFeed((await fetchFeed(`${origin}/bom.xml`)).body)?.entries[0].title).toBe('Café 東京');
  });

  it('refuses non-http URLs, HTTP errors, slow answers and bodies over the cap', async () => {
    await expect(fetchFeed('file:///etc/passwd')).rejects.toThrow(/not an http/);
    await expect(fetchFeed(`${origin}/missing.xml`)).rejects.toThrow(/HTTP 404/);
    await expect(fetchFeed(`${origin}/slow.xml`, { timeoutMs: 200 })).rejects.toThrow(/aborted due to timeout/);
    await expect(fetchFeed(`${origin}/huge.xml`, { maxBytes: 256 * 1024 })).rejects.toThrow(/larger than/);
    await expect(fetchFeed(`${origin}/declared-huge.xml`, { maxBytes: 1024 })).rejects.toThrow(/larger than/);
  });
});

describe('refreshFeeds (render)', () => {
  beforeEach(() => clearFeedAttempts());
  const feeds = [{ href: 'https://blog.example/feed.xml', type: 'application/rss+xml' }];

  it('stores a feed under feeds/<site>/<feedId>.xml, at most once per interval per feed URL', async () => {
    const store = new MemoryStore();
    let now = 1_000_000;
    const calls: string[] = [];
    const fetch = async (url: string) => {
      calls.push(url);
      return { url, status: 200, contentType: 'application/rss+xml', body: RSS };
    };
    const options = { fetch, now: () => now, intervalMinutes: 60 };
    const first = await refreshFeeds('blog.example', { feeds }, store, silentLogger, options);
    expect(first.stored).toEqual(['https://blog.example/feed.xml']);
    const key = keys.feed('blog.example', feedIdOf('https://blog.example/feed.xml'));
    expect(key).toMatch(/^feeds\/blog\.example\/[0-9a-f]{20}\.xml$/);
    expect((await store.get(key))?.body.toString()).toBe(RSS);

    now += 30 * 60_000;
    expect((await refreshFeeds('blog.example', { feeds }, store, silentLogger, options)).skipped).toEqual(['https://blog.example/feed.xml']);
    // Another process (empty memory) still sees the stored feed's age.
    clearFeedAttempts();
    now = Date.now() + 10 * 60_000;
    expect((await refreshFeeds('blog.example', { feeds }, store, silentLogger, options)).skipped).toHaveLength(1);
    now = Date.now() + 61 * 60_000;
    expect((await refreshFeeds('blog.example', { feeds }, store, silentLogger, options)).stored).toHaveLength(1);
    expect(calls).toHaveLength(2);
  });

  it('never throws: a failing or non-feed answer is reported, remembered, and not stored', async () => {
    const store = new MemoryStore();
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error('boom');
    };
    const out = await refreshFeeds('blog.example', { feeds }, store, silentLogger, { fetch: failing });
    expect(out.failed).toEqual([{ url: 'https://blog.example/feed.xml', error: 'boom' }]);
    await refreshFeeds('blog.example', { feeds }, store, silentLogger, { fetch: failing });
    expect(calls).toBe(1); // not retried within the interval
    clearFeedAttempts();
    const html = async (url: string) => ({ url, status: 200, contentType: 'text/html', body: '<html></html>' });
    expect((await refreshFeeds('blog.example', { feeds }, store, silentLogger, { fetch: html })).failed[0].error).toMatch(/not an RSS or Atom feed/);
    expect(await store.list('feeds/')).toEqual([]);
    expect((await refreshFeeds('blog.example', { feeds: [{ href: 'ftp://x/feed', type: 'application/rss+xml' }] }, store, silentLogger, { fetch: html })).stored).toEqual([]);
    expect((await refreshFeeds('blog.example', { feeds }, store, silentLogger, { enabled: false, fetch: html })).stored).toEqual([]);
  });
});
