/** bench/pooled.ts: the pooled row over several sets' pages, in the runs' scoring and, from the same run, in the other one. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatPooled, poolResults } from '../../bench/pooled';
import { splitLabel } from '../../bench/report';
import type { BenchResult, PageFigures, PageResult } from '../../bench/run';

const fig = (precision: number, recall: number): PageFigures => ({ precision, recall, f1: (2 * precision * recall) / (precision + recall) }) as PageFigures;

function page(id: string, ours: [number, number], peer: [number, number], other?: { ours: [number, number]; peer: [number, number] }): PageResult {
  return {
    id, site: 'a.com', group: 'learned', url: `http://a.com/${id}`,
    ours: fig(...ours),
    peers: { readability: { ...fig(...peer), ms: 10 } },
    ...(other ? { otherScoring: { scoring: 'body' as const, ours: fig(...other.ours), peers: { readability: fig(...other.peer) } } } : {}),
  } as PageResult;
}

function result(dataset: string, perPage: PageResult[]): Pick<BenchResult, 'dataset' | 'perPage' | 'options'> {
  return { dataset, perPage, options: { train: 0, peers: ['readability'], scoring: 'title+body', methods: [] } } as unknown as Pick<BenchResult, 'dataset' | 'perPage' | 'options'>;
}

describe('poolResults', () => {
  it('pools every page of every set once, and the other scoring from the same pages', () => {
    const a = result('a', [page('1', [1, 1], [0.5, 0.5], { ours: [0.8, 0.8], peer: [0.6, 0.6] })]);
    const b = result('b', [
      page('2', [0.5, 0.5], [1, 1], { ours: [0.4, 0.4], peer: [1, 1] }),
      page('3', [0.5, 0.5], [1, 1], { ours: [0.4, 0.4], peer: [1, 1] }),
    ]);
    const p = poolResults([a, b]);
    expect(p.scoring).toBe('title+body');
    expect(p.pooled.pages).toBe(3);
    expect(p.pooled.ours.f1).toBeCloseTo(2 / 3, 3);
    expect(p.pooled.peers.readability.f1).toBeCloseTo(5 / 6, 3);
    expect(p.other?.scoring).toBe('body');
    expect(p.other?.pooled.ours.f1).toBeCloseTo(1.6 / 3, 3);
    expect(p.other?.pooled.peers.readability.f1).toBeCloseTo(2.6 / 3, 3);
    expect(p.other?.sets.map((s) => s.ours.f1)).toEqual([0.8, 0.4]);
    expect(formatPooled(p)).toContain('scoring: body (same run)');
  });

  it('leaves the other scoring out when a page lacks it', () => {
    const p = poolResults([result('a', [page('1', [1, 1], [0.5, 0.5]), page('2', [1, 1], [0.5, 0.5], { ours: [1, 1], peer: [1, 1] })])]);
    expect(p.other).toBeUndefined();
    expect(formatPooled(p)).not.toContain('same run');
  });
});

describe('poolResults with no learned site (--train 0)', () => {
  it('pools every scored page', () => {
    const fallbackPage = (id: string) => ({ ...page(id, [1, 1], [0.5, 0.5]), group: 'fallback' as const });
    const p = poolResults([result('a', [fallbackPage('1'), fallbackPage('2')]), result('b', [fallbackPage('3')])]);
    expect(p.group).toBe('all');
    expect(p.pooled.pages).toBe(3);
    expect(formatPooled(p)).toContain('set (every page)');
  });
});

describe('the pooled command on saved results', () => {
  const run = promisify(execFile);
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const saved = (dataset: string, options: Partial<BenchResult['options']>) => ({ ...result(dataset, [page('1', [1, 1], [0.5, 0.5])]), options: { ...result(dataset, []).options, ...options } });

  it('names the split as its options are given', () => {
    expect(splitLabel(saved('a', { train: 5, sitesBy: 'host' }).options)).toBe('--train 5');
    // a result written before --sites-by grouped by the manifest's sites
    expect(splitLabel(saved('a', { train: 5 }).options)).toBe('--train 5 --sites-by dataset');
    expect(splitLabel(saved('a', { train: 5, trainSeed: 1, sitesBy: 'dataset' }).options)).toBe('--train 5 --train-seed 1 --sites-by dataset');
    expect(splitLabel(saved('a', { train: 3, trainFrom: 'last', sitesBy: 'host', learnFrom: 'big9-09' }).options)).toBe('--train 3 --train-from last --learn-from big9-09');
    // two models stored under one name are two models
    const model = (sha256: string) => ({ file: 'fallback.json', sha256, trainedOn: 'store: 514 pages of 54 learned sites' });
    const [one, two] = ['0123456789ab', 'ba9876543210'].map((sha) => splitLabel(saved('a', { train: 0, sitesBy: 'host', fallbackModel: model(sha) }).options));
    expect(one).toBe('--train 0 --fallback-model fallback.json (0123456789ab)');
    expect(two).not.toBe(one);
  });

  it('pools results of one split, and refuses results that split the pages differently', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-pooled-'));
    try {
      const file = async (name: string, r: object) => {
        const f = path.join(dir, name);
        await writeFile(f, JSON.stringify(r));
        return f;
      };
      const a = await file('a.json', saved('a', { train: 5, trainSeed: 1, sitesBy: 'host' }));
      const b = await file('b.json', saved('b', { train: 5, trainSeed: 1, sitesBy: 'host' }));
      const c = await file('c.json', saved('c', { train: 5, trainSeed: 2, sitesBy: 'host' }));
      const { stdout } = await run(process.execPath, [tsx, 'bench/pooled.ts', a, b], { cwd: root });
      expect(stdout).toMatch(/^=== 2 sets, --train 5 --train-seed 1 ===/);
      expect(stdout).toMatch(/^pooled\s+2\s/m);
      const refused = await run(process.execPath, [tsx, 'bench/pooled.ts', a, c], { cwd: root }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused?.code).toBe(2);
      expect(refused?.stderr).toMatch(/split the sites' pages differently or used other fallback models \(--train 5 --train-seed 1; --train 5 --train-seed 2\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
