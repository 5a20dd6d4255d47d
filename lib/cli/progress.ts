/** Progress on a terminal, quiet in CI: one line per finished message, counts at the end. */
import type { ConsumerEvent } from '../queue/worker';

export interface Tally {
  rendered: number;
  learned: number;
  extracted: number;
  retried: number;
  dead: number;
}

export function createProgress(options: { quiet: boolean; out?: NodeJS.WritableStream }) {
  const out = options.out ?? process.stderr;
  const tally: Tally = { rendered: 0, learned: 0, extracted: 0, retried: 0, dead: 0 };
  const say = (line: string) => {
    if (!options.quiet) out.write(line + '\n');
  };
  const onEvent = (event: ConsumerEvent) => {
    const m = event.message as Record<string, unknown>;
    const subject = String(m?.url ?? (m?.pageId ? `${m.site}/${m.pageId}` : m?.site ?? ''));
    if (event.outcome === 'dead') {
      tally.dead++;
      out.write(`✗ ${event.queue} ${subject}: ${event.error}\n`);
      return;
    }
    if (event.outcome === 'retry') {
      tally.retried++;
      say(`↻ ${event.queue} ${subject}: ${event.error} (will retry)`);
      return;
    }
    const r = event.result as Record<string, unknown> | undefined;
    if (event.queue === 'render') {
      tally.rendered++;
      say(`rendered  ${subject} (${r?.blocks} blocks, ${r?.elapsedMs} ms)`);
    } else if (event.queue === 'learn') {
      if (r?.learned) {
        tally.learned++;
        const rules = r.rules as { rulesVersion: number; content: { selectors: string[] }; learnedFrom: string[] };
        say(`learned   ${subject}: rules v${rules.rulesVersion}, ${rules.content.selectors.length} selectors from ${rules.learnedFrom.length} pages`);
      }
    } else if (event.queue === 'apply') {
      tally.extracted++;
      say(`extracted ${r?.url ?? subject} (${r?.method}, ${r?.wordCount} words)`);
    }
  };
  return { onEvent, tally };
}
