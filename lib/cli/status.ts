/**
 * `spider status` for people: queues, learned and waiting sites, pages extracted. `--json` prints the
 * SpiderStatus itself. The store is counted from its key listing (lib/store/summary.ts): an article
 * document is a page extracted, whether it gave an article, a page flagged not an article or one with
 * no words (telling them apart reads every document: `spider articles` marks them), and it says so.
 */
import type { StatusQueueName, SpiderStatus } from '../queue/status';
import { plural } from '../text/plural';
import { formatDuration } from './progress';

const QUEUES: readonly StatusQueueName[] = ['fetch', 'render', 'learn', 'apply'];
const SITES_SHOWN = 20;

export function formatStatus(status: SpiderStatus, now = Date.now()): string {
  const lines: string[] = [];
  lines.push(`${status.where === 'aws' ? 'deployed stack' : 'embedded store'}: ${status.location}`);
  if (status.running) {
    const age = (now - Date.parse(status.running.updatedAt)) / 1000;
    lines.push(`a run is going on: pid ${status.running.pid}, started ${status.running.startedAt}, counts from ${formatDuration(age)} ago`);
  }
  lines.push('');
  lines.push('queue     pending  in flight  dead letters  oldest pending');
  for (const q of QUEUES) {
    const c = status.queues[q];
    if (!c) continue; // no fetch queue: the embedded runner, or an older stack
    const age = c.oldestPendingAgeSeconds === null ? 'unknown' : c.pending === 0 ? '-' : formatDuration(c.oldestPendingAgeSeconds);
    lines.push(`${q.padEnd(8)} ${String(c.pending).padStart(8)} ${String(c.inFlight).padStart(10)} ${String(c.deadLettered).padStart(13)}  ${age}`);
  }
  for (const q of QUEUES) if (status.queues[q]?.note) lines.push(`  ${q}: ${status.queues[q]?.note}`);
  const { store } = status;
  lines.push('');
  lines.push(`pages extracted: ${store.articles} (articles, and pages with no words or not an article alike: \`spider articles\` marks those); pages stored: ${store.pages}`);
  lines.push(`sites learned: ${store.learned.length}`);
  const learned = [...store.learned].sort((a, b) => b.learnedAt.localeCompare(a.learnedAt));
  const waiting = [...store.waitingToLearn].sort((a, b) => b.pages - a.pages);
  // the sites' columns line up, however long their names
  const width = Math.max(0, ...[...learned.slice(0, SITES_SHOWN), ...waiting.slice(0, SITES_SHOWN)].map((x) => x.site.length));
  for (const l of learned.slice(0, SITES_SHOWN)) lines.push(`  ${l.site.padEnd(width)}  rules v${l.rulesVersion}, learned ${l.learnedAt}, ${plural(l.pages, 'page')}, ${l.articles} extracted`);
  if (learned.length > SITES_SHOWN) lines.push(`  … and ${learned.length - SITES_SHOWN} more (--json lists them all)`);
  lines.push(`sites waiting to learn (pages, no rules yet): ${store.waitingToLearn.length}`);
  for (const w of waiting.slice(0, SITES_SHOWN)) lines.push(`  ${w.site.padEnd(width)}  ${plural(w.pages, 'page')}`);
  if (waiting.length > SITES_SHOWN) lines.push(`  … and ${waiting.length - SITES_SHOWN} more`);
  return lines.join('\n');
}
