import { describe, expect, it } from 'vitest';
import { plural } from '../../lib/text/plural';

describe('plural', () => {
  it('says one thing in the singular, none and many in the plural', () => {
    expect([plural(1, 'article'), plural(0, 'article'), plural(2, 'URL'), plural(1, 'retry', 'retries'), plural(3, 'retry', 'retries')]).toEqual(['1 article', '0 articles', '2 URLs', '1 retry', '3 retries']);
  });
});
