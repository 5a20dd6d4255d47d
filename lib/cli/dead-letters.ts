/** `spider dead-letters` as text: one line each, the queue, the URL (or site/page) and the reason. */
import type { DeadLetter } from '../queue/memory-queue';
import { shownReason, shownText, terminalSafe, terminalSafeJson } from './format';
import { schemeHint } from './url-hint';

/** What a dead letter was about: its URL (quoted when it is no valid URL; a long one cut, `--json` has it whole), else its site/page or site. */
export function deadLetterSubject(letter: Pick<DeadLetter, 'body'>): string {
  const body = letter.body as { url?: unknown; site?: unknown; pageId?: unknown; deadLetterFile?: unknown } | undefined;
  if (typeof body?.url === 'string') return shownText(body.url, !(URL.canParse(body.url) && !/\s/.test(body.url)));
  if (typeof body?.site === 'string') return terminalSafe(typeof body.pageId === 'string' ? `${body.site}/${body.pageId}` : body.site, true);
  if (typeof body?.deadLetterFile === 'string') return terminalSafe(body.deadLetterFile, true);
  return terminalSafeJson(body ?? null).slice(0, 200);
}

/** A guess at what a URL refused at submission meant (`www.example.com/page.html`: `http://www.example.com/page.html`). */
function urlHint(letter: Pick<DeadLetter, 'body' | 'reason'>): string {
  const url = (letter.body as { url?: unknown } | undefined)?.url;
  return typeof url === 'string' && letter.reason.startsWith('invalid message: url: ') ? shownReason(schemeHint(url)) : '';
}

export function formatDeadLetters(letters: readonly DeadLetter[]): string {
  if (letters.length === 0) return 'no dead letters\n';
  const width = Math.max(...letters.map((d) => d.queue.length));
  const head = `${letters.length} dead letter${letters.length === 1 ? '' : 's'} (queue, URL or site/page, reason; --json for the whole messages):\n`;
  return head + letters.map((d) => `${d.queue.padEnd(width)}  ${deadLetterSubject(d)}  ${shownReason(d.reason)}${urlHint(d)}\n`).join('');
}
