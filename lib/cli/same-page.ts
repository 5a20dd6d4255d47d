/**
 * URLs of one input (`run`'s or `submit`'s arguments and file) that are the same page as an earlier
 * one: the same site and page id (lib/store/keys.ts), so an exact repeat, the URL with a `#fragment`,
 * or with its host in another case. Such a URL is not submitted again (the page would be fetched and
 * extracted twice to the same article), and it is said. A URL stored by an earlier run is no duplicate:
 * submitting it again fetches it again, as asked.
 */
import { pageIdOf, siteOf } from '../store/keys';
import { HttpUrlSchema } from '../types/messages';

export interface SamePage {
  /** The URL as given. */
  readonly url: string;
  /** The earlier URL of the input that is the same page. */
  readonly sameAs: string;
}

/** The URLs in order, each page once (its first URL); invalid URLs are all kept (each is rejected with its reason). */
export function dropSamePages(urls: readonly string[]): { readonly unique: string[]; readonly duplicates: SamePage[] } {
  const first = new Map<string, string>();
  const unique: string[] = [];
  const duplicates: SamePage[] = [];
  for (const url of urls) {
    if (!HttpUrlSchema.safeParse(url).success) {
      unique.push(url);
      continue;
    }
    const page = `${siteOf(url)}/${pageIdOf(url)}`;
    const earlier = first.get(page);
    if (earlier === undefined) {
      first.set(page, url);
      unique.push(url);
    } else duplicates.push({ url, sameAs: earlier });
  }
  return { unique, duplicates };
}
