/**
 * A disk cache of the peers' outputs (`--peer-cache <dir>`): a peer's text, title and time on a page
 * depend only on the page's HTML, its URL and the peer's package, none of which a change to spider
 * touches, so runs that tune the learner can skip the peers (the slowest part of a run). Entries are
 * keyed by the peer's name and package version, the URL and the HTML; the recorded `ms` is the time of
 * the run that wrote the entry (the report says when peers came from the cache).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { PeerRun } from './peers';

const PACKAGES: Record<string, string> = {
  readability: '@mozilla/readability',
  postlight: '@postlight/parser',
  extractus: '@extractus/article-extractor',
  defuddle: 'defuddle',
};

const versions = new Map<string, string>();
function peerVersion(name: string): string {
  let v = versions.get(name);
  if (v === undefined) {
    try {
      const require = createRequire(import.meta.url);
      v = String((require(`${PACKAGES[name] ?? name}/package.json`) as { version?: string }).version);
    } catch {
      v = 'unknown';
    }
    versions.set(name, v);
  }
  return v;
}

export class PeerCache {
  hits = 0;
  misses = 0;
  constructor(private readonly dir: string) {}

  private file(peer: string, url: string, html: string): string {
    const key = createHash('sha256').update(`peer-cache:1:${peer}:${peerVersion(peer)}\0${url}\0${html}`).digest('hex');
    return path.join(this.dir, peer, `${key}.json.gz`);
  }

  async get(peer: string, url: string, html: string): Promise<PeerRun | undefined> {
    try {
      const run = JSON.parse(gunzipSync(await readFile(this.file(peer, url, html))).toString('utf8')) as PeerRun;
      this.hits++;
      return run;
    } catch {
      this.misses++;
      return undefined;
    }
  }

  async put(peer: string, url: string, html: string, run: PeerRun): Promise<void> {
    const file = this.file(peer, url, html);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, gzipSync(JSON.stringify(run)));
  }
}
