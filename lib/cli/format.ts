/** An article in the formats readers want: text, Markdown, clean HTML, or the JSON document. */
import type { ArticleDocument } from '../types/article-document';

export type OutputFormat = 'text' | 'markdown' | 'html' | 'json';

export function formatArticle(article: ArticleDocument, format: OutputFormat): string {
  const byline = [article.byline, article.published].filter(Boolean).join(' · ');
  switch (format) {
    case 'json':
      return JSON.stringify(article, null, 2);
    case 'html':
      return `<article>\n${article.title ? `<h1>${escapeHtml(article.title)}</h1>\n` : ''}${byline ? `<p class="byline">${escapeHtml(byline)}</p>\n` : ''}${article.html}\n</article>`;
    case 'markdown':
      return [article.title && `# ${article.title}`, byline && `*${byline}*`, ...article.text.split('\n')].filter(Boolean).join('\n\n');
    case 'text':
      return [article.title, byline, '', article.text].filter((l) => l !== undefined).join('\n');
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
