/** The store's key layout (docs/storage-layout.md): every kind of object under its folder of keyPrefixes. */
import { describe, expect, it } from 'vitest';
import { keyPatterns, keyPrefixes, keys, normalizeUrl, pageIdFromFeaturesKey, pageIdOf, pageUrlOf } from '../../lib/store/keys';

describe('keys', () => {
  it('writes the documented layout', () => {
    expect(keys.archive('a.com', 'p1')).toBe('archive/a.com/p1.html');
    expect(keys.features('a.com', 'p1')).toBe('pages/a.com/p1/features.json');
    expect(keys.snapshot('a.com', 'p1')).toBe('pages/a.com/p1/snapshot.html');
    expect(keys.served('a.com', 'p1')).toBe('pages/a.com/p1/served.html');
    expect(keyPatterns).toEqual({ served: 'pages/*/*/served.html' });
    expect(keys.pagePrefix('a.com')).toBe('pages/a.com/');
    expect(keys.rules('a.com')).toBe('rules/a.com.json');
    expect(keys.rulesPrefix()).toBe('rules/');
    expect(keys.article('a.com', 'p1')).toBe('articles/a.com/p1.json');
    expect(keys.articlePrefix()).toBe('articles/');
    expect(keys.articlePrefix('a.com')).toBe('articles/a.com/');
    expect(keys.feed('a.com', 'f1')).toBe('feeds/a.com/f1.xml');
    expect(keys.feedPrefix('a.com')).toBe('feeds/a.com/');
    expect(keys.drift('a.com', 'p1')).toBe('drift/a.com/p1.json');
    expect(keys.driftPrefix('a.com')).toBe('drift/a.com/');
    expect(keys.redirect('a.com', 'p1')).toBe('redirects/a.com/p1.json');
    expect(keys.pageFolder('a.com', 'p1')).toBe('pages/a.com/p1/');
    expect(keys.fallbackModel()).toBe('models/fallback.json');
    expect(keys.hostState('WWW.Example.org:8080')).toBe('politeness/hosts/www.example.org%3A8080.json');
    expect(pageIdFromFeaturesKey(keys.features('a.com', 'p1'))).toBe('p1');
  });

  it('puts every key under one of the top-level folders', () => {
    const all = [
      keys.archive('a.com', 'p'), keys.features('a.com', 'p'), keys.snapshot('a.com', 'p'), keys.served('a.com', 'p'), keys.rules('a.com'),
      keys.article('a.com', 'p'), keys.redirect('a.com', 'p'), keys.feed('a.com', 'f'), keys.drift('a.com', 'p'), keys.fallbackModel(), keys.hostState('a.com'),
    ];
    for (const key of all) expect(Object.values(keyPrefixes).filter((p) => key.startsWith(p)), key).toHaveLength(1);
  });

  it("files a page under the site that served it: where a redirect to another site ended, else the URL asked for", () => {
    const asked = 'http://short.example/abc';
    // another site: the landing page's URL, normalised
    expect(pageUrlOf(asked, 'https://News.Example.org/2026/story.html#top')).toBe('https://news.example.org/2026/story.html');
    // the same site: http to https, to www., another path, or no redirect at all, keep the URL asked for
    for (const final of ['https://short.example/abc', 'http://www.short.example/abc', 'http://short.example/2026/abc.html', asked, undefined]) {
      expect(pageUrlOf(asked, final), String(final)).toBe(asked);
    }
    // where no page can be (not http), the URL asked for
    expect(pageUrlOf(asked, 'about:blank')).toBe(asked);
  });

  it("is one page for a URL with or without its tracking parameters (utm_*, click ids); other parameters, as written, make other pages", () => {
    const page = 'https://news.example/story?id=7&q=a%20b';
    for (const tracked of [
      'https://news.example/story?utm_source=feed&id=7&utm_medium=rss&q=a%20b',
      'https://news.example/story?id=7&fbclid=IwAR0x&q=a%20b#comments',
      'https://news.example/story?id=7&q=a%20b&gclid=abc&UTM_Campaign=x&mc_cid=1&igshid=2',
    ]) {
      expect(normalizeUrl(tracked), tracked).toBe(page);
      expect(pageIdOf(tracked), tracked).toBe(pageIdOf(page));
    }
    expect(normalizeUrl('https://news.example/story?utm_source=feed&fbclid=1')).toBe('https://news.example/story');
    expect(normalizeUrl('https://news.example/story?ref=feed&q=a+b&utm=1')).toBe('https://news.example/story?ref=feed&q=a+b&utm=1');
    expect(pageIdOf('https://news.example/story?id=8&utm_source=x')).not.toBe(pageIdOf(page));
    expect(pageIdOf('https://news.example/story?q=a+b&id=7')).not.toBe(pageIdOf(page));
    // a query with no tracking parameter is left as written, empty pairs and all
    for (const url of ['https://news.example/story?b=1&', 'https://news.example/story?&', 'https://news.example/story?b=1&&c=2']) expect(normalizeUrl(url)).toBe(url);
    expect(normalizeUrl('https://news.example/story?utm_source=x&')).toBe('https://news.example/story');
  });

  it('refuses a site that is not a safe path segment', () => {
    expect(() => keys.rules('../etc')).toThrow(/not a valid site name/);
  });
});
