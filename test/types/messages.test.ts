import { describe, expect, it } from 'vitest';
import { HttpUrlSchema, RenderMessageSchema } from '../../lib/types/messages';
import { keys, siteOf } from '../../lib/store/keys';

describe('HttpUrlSchema', () => {
  it.each([
    ['not a url', 'not a valid absolute URL'],
    ['file:///proc/self/environ', 'only http and https URLs are supported, not file:'],
    ['javascript:alert(1)', 'only http and https URLs are supported, not javascript:'],
    [`https://example.com/${'a'.repeat(2100)}`, 'URL is longer than 2048 characters'],
    ['http://[::1]:8080/a', 'IPv6 address hosts are not supported ([::1])'],
    [`http://${`${'a'.repeat(60)}.`.repeat(5)}com/`, 'the host name is longer than 253 characters (308)'],
    [`http://${'a'.repeat(64)}.com/`, 'the host name has a label longer than 63 characters'],
    ['http://a..b.com/', 'the host name "a..b.com" has an empty label'],
    ['http://a.example/1 http://a.example/2', 'holds white space (one URL a line; a space in a URL is written %20)'],
  ])('rejects %s with a clear reason', (input, reason) => {
    const result = HttpUrlSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].message).toBe(reason);
  });

  it('accepts a host name with an underscore, and its site is a store key', () => {
    expect(HttpUrlSchema.safeParse('https://my_blog.example.com/post').success).toBe(true);
    expect(keys.features(siteOf('https://my_blog.example.com/post'), 'p')).toBe('pages/my_blog.example.com/p/features.json');
  });

  it('accepts http and https URLs', () => {
    expect(HttpUrlSchema.safeParse('https://example.com/a?b=1').success).toBe(true);
    expect(RenderMessageSchema.parse({ v: 1, url: 'http://example.com/' }).url).toBe('http://example.com/');
  });
});
