/**
 * Time the instant path on real pages: parse + metadata + rules extraction, and parse + metadata +
 * fallback. The rules are synthetic but shaped like learned ones: the render collector's
 * `body > tag#id.class > ...` selectors of every <p>/<h2>/<li> block with text (deduplicated),
 * plus two clean selectors.
 *
 *   npx tsx lib/eval/measure-apply.ts /work/shared/datasets/dragnet-sites [--min-kb 100] [--max-kb 200] [--runs 5]
 */
import { Element } from 'domhandler';
import { extractWithRules } from '../apply/extract-with-rules';
import { extractFallback } from '../apply/fallback';
import { extractMetadata } from '../apply/metadata';
import { elements, headAndBody, parseHtml } from '../apply/parse';
import { readDataset } from './dataset';

const cssIdent = (s: string) => s.replace(/^(-?\d)/, '\\3$1 ').replace(/[^\w-]/g, (c) => '\\' + c);

/** The render collector's selector for an element: tags with id and classes from <body> down. */
function collectorSelector(el: Element, body: Element): string {
  const steps: string[] = [];
  for (let n: Element | null = el; n && n !== body; n = n.parent instanceof Element ? n.parent : null) {
    const id = n.attribs.id ? '#' + cssIdent(n.attribs.id) : '';
    const classes = (n.attribs.class ?? '').split(/\s+/).filter(Boolean).map((c) => '.' + cssIdent(c)).join('');
    steps.unshift(n.name + id + classes);
  }
  return ['body', ...steps].join(' > ');
}

function syntheticRules(html: string): { selectors: string[]; clean: string[] } {
  const doc = parseHtml(html);
  const { body } = headAndBody(doc);
  const selectors = new Set<string>();
  if (body) {
    for (const el of elements(body)) {
      if ((el.name === 'p' || el.name === 'h2' || el.name === 'li') && el.children.some((c) => 'data' in c && /\S/.test(String(c.data)))) {
        selectors.add(collectorSelector(el, body));
        if (selectors.size >= 60) break;
      }
    }
  }
  return { selectors: [...selectors], clean: ['.share', 'div.related'] };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  if (!dir) throw new Error('usage: measure-apply.ts <dataset dir> [--min-kb N] [--max-kb N] [--runs N]');
  const opt = (name: string, d: number) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : d;
  };
  const minKb = opt('--min-kb', 100);
  const maxKb = opt('--max-kb', 200);
  const runs = opt('--runs', 5);

  const dataset = await readDataset(dir);
  const pages: Array<{ id: string; html: string; rules: { selectors: string[]; clean: string[] } }> = [];
  for (const e of dataset.entries) {
    const html = await e.html();
    const kb = Buffer.byteLength(html) / 1024;
    if (kb >= minKb && kb <= maxKb) pages.push({ id: e.id, html, rules: syntheticRules(html) });
  }
  if (pages.length === 0) throw new Error(`no page between ${minKb} and ${maxKb} KB`);

  // Warm up.
  for (const p of pages.slice(0, 5)) {
    const doc = parseHtml(p.html);
    extractWithRules(doc, p.rules);
    extractFallback(doc);
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rows: Array<{ id: string; kb: number; selectors: number; parse: number; meta: number; rules: number; fallback: number }> = [];
  for (const p of pages) {
    const t = { parse: [] as number[], meta: [] as number[], rules: [] as number[], fallback: [] as number[] };
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      const doc = parseHtml(p.html);
      const t1 = performance.now();
      extractMetadata(doc);
      const t2 = performance.now();
      extractWithRules(doc, p.rules);
      const t3 = performance.now();
      extractFallback(doc);
      const t4 = performance.now();
      t.parse.push(t1 - t0);
      t.meta.push(t2 - t1);
      t.rules.push(t3 - t2);
      t.fallback.push(t4 - t3);
    }
    rows.push({
      id: p.id,
      kb: Math.round(Buffer.byteLength(p.html) / 1024),
      selectors: p.rules.selectors.length,
      parse: median(t.parse),
      meta: median(t.meta),
      rules: median(t.rules),
      fallback: median(t.fallback),
    });
  }
  const f = (x: number) => x.toFixed(2);
  console.log(`${pages.length} pages of ${minKb}-${maxKb} KB from ${dataset.name}, median of ${runs} runs each (ms):`);
  console.log('id\tKB\tselectors\tparse\tmetadata\trules\tfallback\tparse+meta+rules');
  for (const r of rows) console.log(`${r.id}\t${r.kb}\t${r.selectors}\t${f(r.parse)}\t${f(r.meta)}\t${f(r.rules)}\t${f(r.fallback)}\t${f(r.parse + r.meta + r.rules)}`);
  const avg = (k: 'parse' | 'meta' | 'rules' | 'fallback') => rows.reduce((a, r) => a + r[k], 0) / rows.length;
  console.log(`average: parse ${f(avg('parse'))}, metadata ${f(avg('meta'))}, rules ${f(avg('rules'))}, fallback ${f(avg('fallback'))}; apply with rules ${f(avg('parse') + avg('meta') + avg('rules'))}, with fallback ${f(avg('parse') + avg('meta') + avg('fallback'))}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
