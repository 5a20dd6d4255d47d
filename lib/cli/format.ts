/** An article in the formats readers want: text, Markdown, clean HTML, or the JSON document. */
import TurndownService from 'turndown';
import type { ArticleDocument } from '../types/article-document';

/**
 * Clean HTML to Markdown that keeps the article's structure: ATX headings, `-` lists, `>` quotes,
 * fenced code, and a figure's caption as an italic line of its own (Turndown, the common converter).
 */
function markdownConverter(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced', emDelimiter: '*' });
  service.addRule('figcaption', {
    filter: 'figcaption',
    replacement: (content) => (content.trim() ? `\n\n*${content.trim()}*\n\n` : ''),
  });
  return service;
}
let converter: TurndownService | undefined;

/** The body as Markdown: from its clean HTML when there is some, else one paragraph per line of text. */
function bodyMarkdown(article: ArticleDocument): string[] {
  if (!article.html.trim()) return article.text.split('\n');
  converter ??= markdownConverter();
  return [converter.turndown(article.html)];
}

export type OutputFormat = 'text' | 'markdown' | 'html' | 'json';

/**
 * Between title and body: the header as the page shows it (dek, byline and dateline line) when the
 * site's rules give one, else a line made of the byline and the date.
 */
function headLines(article: ArticleDocument): string[] {
  if (article.header) return article.header.split('\n').filter((l) => l.trim());
  const byline = [article.byline, article.published].filter(Boolean).join(' · ');
  return byline ? [byline] : [];
}

export function formatArticle(article: ArticleDocument, format: OutputFormat): string {
  const head = headLines(article);
  switch (format) {
    case 'json':
      return JSON.stringify(article, null, 2);
    case 'html': {
      const header = head.length ? `<header>${head.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</header>\n` : '';
      return `<article>\n${article.title ? `<h1>${escapeHtml(article.title)}</h1>\n` : ''}${header}${article.html}\n</article>`;
    }
    case 'markdown':
      return [article.title && `# ${article.title}`, ...head.map((l) => `*${l}*`), ...bodyMarkdown(article)].filter(Boolean).join('\n\n');
    case 'text':
      return [article.title, ...head, '', article.text].filter((l) => l !== undefined).join('\n');
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
