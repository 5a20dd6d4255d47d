/**
 * What an extraction gave a user, one rule for `extract` and the tally of `run`, `work`, `replay`
 * and `relearn`: an article with no words is no article (the page ends without one, exit code 1,
 * as a dead letter would); a page the extractor flags as not an article (a home page, a listing)
 * still has its text, printed and stored, but is counted apart from articles.
 */
import type { ArticleDocument } from '../types/article-document';

export type ArticleOutcome = 'article' | 'not-article' | 'no-words';

/** Why a page gave no article, as `extract` says it on stderr. */
export const NO_WORDS_REASON = 'the page gave an article with no words';

/** What `article` says on stderr of a page flagged not an article, whose text it prints. */
export const NOT_ARTICLE_NOTE = 'the extractor flags this page as not an article (a home page or a listing): its text follows';

export function articleOutcome(article: Pick<ArticleDocument, 'wordCount' | 'notArticle'>): ArticleOutcome {
  if (!(article.wordCount > 0)) return 'no-words';
  return article.notArticle ? 'not-article' : 'article';
}

/** True when the extraction gave the user an article to read (its text may still be flagged not an article). */
export function hasArticle(article: Pick<ArticleDocument, 'wordCount' | 'notArticle'>): boolean {
  return articleOutcome(article) !== 'no-words';
}
