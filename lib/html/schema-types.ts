/**
 * Which JSON-LD nodes are a page's article: one definition for every reader (html/metadata at apply,
 * fields/sources in field learning, the bench's field stripper). The in-page collector
 * (lib/render/collector.ts) carries a copy, since code serialized into the page cannot import;
 * test/render/collector-constants.test.ts pins the copy to COLLECTED_JSONLD_TYPE.
 */

/**
 * schema.org types of an article: Article and its subtypes (NewsArticle, ScholarlyArticle, Report,
 * ...) and the *Posting types (BlogPosting, LiveBlogPosting, SocialMediaPosting,
 * DiscussionForumPosting), also as full type URLs (`https://schema.org/NewsArticle`).
 */
export const ARTICLE_TYPE = /Article|Posting|Report/i;

/**
 * The nodes the collector records: an article, or a WebPage, which may carry the page's headline and
 * date when no article node does (readers take an ARTICLE_TYPE entry first).
 */
export const COLLECTED_JSONLD_TYPE = new RegExp(`${ARTICLE_TYPE.source}|WebPage`, 'i');
