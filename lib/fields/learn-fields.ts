/**
 * The learn step's part for article fields: the site's stored feeds and its pages' metadata give
 * training posts; their snapshots give the elements; lib/fields/learn.ts gives the rules.
 */
import { extractMetadata } from '../html/metadata';
import { parseHtml, type Document } from '../html/parse';
import type { Logger } from '../step/context';
import { keys } from '../store/keys';
import type { Store } from '../store/store';
import type { FeatureDocument } from '../types/feature-document';
import type { FieldsSection } from '../types/rules-document';
import { truthOf, FIELD_NAMES, type FieldTruth, type FieldName } from './extract';
import { parseFeed, type FeedEntry } from './feeds';
import { learnFieldRules, type LearnFieldsOptions, type TrainingPost } from './learn';
import { FieldPage } from './page';
import { FeedIndex, introducedByline, markedAuthorNames, postValues, publisherOf, sharedTitles, siteAuthor, type PostValues } from './sources';

/** Feeds read per site (newest first), and the largest one read. */
const MAX_FEEDS = 10;
const MAX_FEED_BYTES = 4 * 1024 * 1024;

/** Entries of the site's stored feeds (`feeds/<site>/…`), newest feed first. */
export async function readSiteFeeds(store: Store, site: string, logger?: Logger): Promise<FeedEntry[]> {
  const listed = (await store.list(keys.feedPrefix(site)))
    .filter((o) => o.size <= MAX_FEED_BYTES)
    .sort((a, b) => b.lastModified.getTime() - a.lastModified.getTime())
    .slice(0, MAX_FEEDS);
  const entries: FeedEntry[] = [];
  for (const o of listed) {
    const obj = await store.get(o.key);
    if (!obj) continue;
    const feed = parseFeed(obj.body.toString('utf8'));
    if (feed) entries.push(...feed.entries);
    else logger?.warn('a stored feed does not parse; ignored', { key: o.key });
  }
  return entries;
}

export interface SiteFieldsOptions extends Partial<LearnFieldsOptions> {
  readonly logger?: Logger;
}

/**
 * Learn a site's field rules from its feature documents (the learn step's pages), their snapshots and
 * the site's stored feeds. Undefined when no page has a value from any source.
 */
export async function learnSiteFields(
  site: string,
  docs: readonly FeatureDocument[],
  store: Store,
  options: SiteFieldsOptions = {},
): Promise<FieldsSection | undefined> {
  const { logger, ...learnOptions } = options;
  const feedEntries = await readSiteFeeds(store, site, logger);
  const feeds = new FeedIndex(feedEntries);
  const posts: TrainingPost[] = [];
  let fromFeed = 0;
  let fromMetadata = 0;
  let fromReadability = 0;
  let fromUrl = 0;
  const metadata = { sharedTitles: sharedTitles(docs.map((d) => d.page)), documentTitle: true };
  // The author-marked elements are read to confirm a byline Readability gave, and where the metadata
  // names one author on every page, to tell a publisher from a single author (publisherOf).
  const author = siteAuthor(docs.map((d) => d.page));
  const pages: Array<{ doc: FeatureDocument; parsed: Document; marked?: string[]; introduced?: string }> = [];
  for (const doc of docs) {
    const snapshot = await store.get(doc.snapshotKey);
    if (!snapshot) continue;
    const parsed = parseHtml(snapshot.body);
    const marked = doc.readability?.byline ? markedAuthorNames(parsed) : undefined;
    pages.push({ doc, parsed, marked, introduced: author ? introducedByline(parsed) : undefined });
  }
  const publisher = publisherOf(author, pages.map((p) => p.introduced));
  const read: Array<{ doc: FeatureDocument; parsed: Document } & PostValues> = pages.map(({ doc, parsed, marked, introduced }) => ({
    doc,
    parsed,
    ...postValues(doc, feeds, metadata, { markup: extractMetadata(parsed, { title: false }).byline, marked, introduced, publisher }),
  }));
  // Days from URLs teach a date only across two days or more: posts all of one day (a site's newest
  // pages) show that day in any element that shows the date at all, a related post's or an event's.
  const urlDays = new Set(read.filter((r) => r.sources.published === 'url').map((r) => r.values.published));
  if (urlDays.size < 2) {
    for (const r of read) {
      if (r.sources.published !== 'url') continue;
      delete r.values.published;
      delete r.sources.published;
    }
  }
  for (const { doc, parsed, values, sources } of read) {
    const truths: Partial<Record<FieldName, FieldTruth>> = {};
    for (const field of FIELD_NAMES) {
      const t = truthOf(field, values[field]);
      if (t) truths[field] = t as never;
    }
    if (Object.keys(truths).length === 0) continue;
    for (const field of Object.keys(truths) as FieldName[]) {
      if (sources[field] === 'feed') fromFeed++;
      else if (sources[field] === 'readability') fromReadability++;
      else if (sources[field] === 'url') fromUrl++;
      else fromMetadata++;
    }
    posts.push({ pageId: doc.pageId, page: new FieldPage(parsed), truths });
  }
  const section = learnFieldRules({ posts, feedEntries: feedEntries.length, fromFeed, fromMetadata, fromReadability, fromUrl }, learnOptions);
  logger?.info('learned field rules', {
    site,
    posts: posts.length,
    feedEntries: feedEntries.length,
    title: section?.title?.rules[0]?.selector,
    byline: section?.byline?.rules[0]?.selector,
    published: section?.published?.rules[0]?.selector,
  });
  return section;
}
