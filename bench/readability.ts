/**
 * Readability.js on jsdom at the page's URL: the one loader every comparison of the bench uses
 * (the peers' article text, the field bench's title, byline and publishedTime, the fallback methods' reference).
 */
import type { Readability } from '@mozilla/readability';

export type ReadabilityArticle = NonNullable<ReturnType<Readability['parse']>>;
export type ReadabilityParse = (html: string, url: string) => ReadabilityArticle | null;

export async function loadReadability(): Promise<ReadabilityParse> {
  const { JSDOM, VirtualConsole } = await import('jsdom');
  const { Readability } = await import('@mozilla/readability');
  const virtualConsole = new VirtualConsole(); // no listeners: jsdom's CSS and script warnings stay quiet
  return (html, url) => {
    const dom = new JSDOM(html, { url, virtualConsole });
    try {
      return new Readability(dom.window.document).parse();
    } finally {
      dom.window.close();
    }
  };
}
