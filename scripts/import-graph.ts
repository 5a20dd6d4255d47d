/**
 * Folder-level import graph of lib/: every edge `from -> to` with the number of import statements,
 * and MUTUAL where the two folders import each other (the layering in the README forbids it; the
 * lint rule in eslint.config.js enforces it file by file).
 *
 *   npm run graph            # edges of lib/
 *   npm run graph -- --dot   # the same as Graphviz dot
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = 'lib';
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g;

function* tsFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* tsFiles(p);
    else if (p.endsWith('.ts')) yield p;
  }
}

/** The lib/ folder a path lies in (or names, for a folder import), or undefined outside lib/. */
function folderOf(file: string): string | undefined {
  const parts = path.normalize(file).split(path.sep);
  return parts[0] === ROOT && parts.length >= 2 ? parts[1] : undefined;
}

const edges = new Map<string, number>();
for (const file of tsFiles(ROOT)) {
  const from = folderOf(file)!;
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
    if (!spec.startsWith('.')) continue;
    const to = folderOf(path.join(path.dirname(file), spec));
    if (!to || to === from) continue;
    const key = `${from} -> ${to}`;
    edges.set(key, (edges.get(key) ?? 0) + 1);
  }
}

const sorted = [...edges.keys()].sort();
if (process.argv.includes('--dot')) {
  console.log('digraph lib {');
  for (const key of sorted) console.log(`  ${key.replace(' -> ', ' -> ')} [label=${edges.get(key)}];`);
  console.log('}');
} else {
  let mutual = 0;
  for (const key of sorted) {
    const [a, b] = key.split(' -> ');
    const isMutual = edges.has(`${b} -> ${a}`);
    if (isMutual) mutual++;
    console.log(`${key} ${edges.get(key)}${isMutual ? ' MUTUAL' : ''}`);
  }
  console.log(`${sorted.length} edges, ${mutual / 2} mutual pairs`);
}
