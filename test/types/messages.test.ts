import { describe, expect, it } from 'vitest';
import { HttpUrlSchema, RenderMessageSchema } from '../../lib/types/messages';

describe('HttpUrlSchema', () => {
  it.each([
    ['not a url', 'not a valid absolute URL'],
    ['file:///proc/self/environ', 'only http and https URLs are supported, not file:'],
    ['javascript:alert(1)', 'only http and https URLs are supported, not javascript:'],
    [`https://example.com/${'a'.repeat(2100)}`, 'URL is longer than 2048 characters'],
  ])('rejects %s with a clear reason', (input, reason) => {
    const result = HttpUrlSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].message).toBe(reason);
  });

  it('accepts http and https URLs', () => {
    expect(HttpUrlSchema.safeParse('https://example.com/a?b=1').success).toBe(true);
    expect(RenderMessageSchema.parse({ v: 1, url: 'http://example.com/' }).url).toBe('http://example.com/');
  });
});
