/**
 * `npx cdk synth` as a user runs it on a fresh clone: no AWS credentials, no Docker. The CLI runs
 * cdk/app.ts (cdk-nag registered), esbuild bundles each function locally, and render gets
 * @sparticuz/chromium installed beside its bundle. Each bundle must load in Node 22 and export
 * its handler.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cdk/queue-consumer';

const run = promisify(execFile);
let outdir: string;
let template: Record<string, any>;
const assets: Record<'Fetch' | 'Render' | 'Learn' | 'Apply', string> = { Fetch: '', Render: '', Learn: '', Apply: '' };

function dirSize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirSize(p) : statSync(p).size;
  }
  return total;
}

beforeAll(async () => {
  outdir = mkdtempSync(path.join(os.tmpdir(), 'spider-cdk-out-'));
  const env = { ...process.env };
  // As on a machine without AWS: no credentials, no account or region.
  for (const k of Object.keys(env)) if (/^(AWS_|CDK_DEFAULT_)/.test(k)) delete env[k];
  await run(process.execPath, [path.join(PROJECT_ROOT, 'node_modules/aws-cdk/bin/cdk'), 'synth', '--quiet', '--output', outdir], {
    cwd: PROJECT_ROOT,
    env: { ...env, CDK_DISABLE_VERSION_CHECK: 'true', CDK_DISABLE_CLI_TELEMETRY: 'true' },
    timeout: 170_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  template = JSON.parse(readFileSync(path.join(outdir, 'Spider.template.json'), 'utf8'));
  for (const step of Object.keys(assets) as (keyof typeof assets)[]) {
    const fn = Object.entries<any>(template.Resources).find(([k, r]) => r.Type === 'AWS::Lambda::Function' && k.startsWith(`${step}Function`))![1];
    assets[step] = path.join(outdir, fn.Metadata['aws:asset:path']);
  }
}, 180_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('npx cdk synth', () => {
  // cdk-nag runs as the app's validation plugin: a violation fails the synth above (nag.test.ts checks its findings)
  it('synthesizes the stack with no Docker: every step a bundled function', () => {
    expect(Object.keys(template.Resources).length).toBeGreaterThan(20);
    for (const dir of Object.values(assets)) expect(existsSync(path.join(dir, 'index.mjs')), dir).toBe(true);
  });

  it('render carries @sparticuz/chromium (with its compressed binary) beside an ESM bundle with a source map', () => {
    const dir = assets.Render;
    expect(readdirSync(dir).sort()).toEqual(expect.arrayContaining(['index.mjs', 'index.mjs.map', 'node_modules', 'package.json']));
    const chromium = path.join(dir, 'node_modules/@sparticuz/chromium');
    expect(existsSync(path.join(chromium, 'bin/chromium.br'))).toBe(true);
    expect(existsSync(path.join(chromium, 'bin/al2023.tar.br'))).toBe(true);
    expect(existsSync(path.join(chromium, 'node_modules')) || existsSync(path.join(dir, 'node_modules/tar-fs'))).toBe(true);
    // Readability.js, evaluated in the rendered page from the package's own file, minified by esbuild's binary for x86_64 Linux.
    expect(existsSync(path.join(dir, 'node_modules/@mozilla/readability/Readability.js'))).toBe(true);
    expect(existsSync(path.join(dir, 'node_modules/@esbuild/linux-x64/bin/esbuild'))).toBe(true);
    const bundle = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
    expect(bundle).toMatch(/from\s*["']@sparticuz\/chromium["']/);
    expect(bundle).toMatch(/from\s*["']esbuild["']/);
    expect(bundle).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
    // Lambda's limit is 250 MB unzipped.
    expect(dirSize(dir)).toBeLessThan(150 * 1024 * 1024);
  });

  it('fetch, learn and apply are single small bundles with the AWS SDK inside (no node_modules, no browser)', () => {
    for (const dir of [assets.Fetch, assets.Learn, assets.Apply]) {
      expect(readdirSync(dir).sort()).toEqual(['index.mjs', 'index.mjs.map']);
      const bundle = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      // the SDK's operations each uses (the store's writes, the queues' sends) are in the bundle, named
      // as the SDK names them to the service (a string, whatever the bundler makes of the code)
      expect(bundle, dir).toMatch(/["']PutObject["']/);
      expect(bundle, dir).toMatch(/["']SendMessage["']/);
      expect(bundle).not.toMatch(/from\s*["']@aws-sdk\//);
      expect(bundle).not.toMatch(/puppeteer|@sparticuz/);
      expect(statSync(path.join(dir, 'index.mjs')).size).toBeLessThan(8 * 1024 * 1024);
    }
  });

  it("render's shipped esbuild minifies its shipped Readability.js, as the render does once per process", async () => {
    const script = `
      const { createRequire } = await import('node:module');
      const { readFileSync } = await import('node:fs');
      const require = createRequire(process.argv[1] + '/index.mjs');
      const shipped = readFileSync(require.resolve('@mozilla/readability/Readability.js'), 'utf8');
      const minified = require('esbuild').transformSync(shipped, { minify: true, loader: 'js' }).code;
      console.log(JSON.stringify({ shipped: shipped.length, minified: minified.length, names: /function Readability\\(/.test(minified) }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, assets.Render], { env: { PATH: process.env.PATH, HOME: os.tmpdir() }, timeout: 60_000 });
    const out = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(out.names).toBe(true);
    expect(out.minified).toBeGreaterThan(10_000);
    expect(out.minified).toBeLessThan(out.shipped / 2);
  });

  it('every bundle loads in Node 22 and exports a handler', async () => {
    const script = `
      const results = {};
      for (const [step, dir] of Object.entries(JSON.parse(process.argv[1]))) {
        const mod = await import(dir + '/index.mjs');
        results[step] = typeof mod.handler;
      }
      console.log(JSON.stringify({ node: process.versions.node, results }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(assets)], {
      env: { PATH: process.env.PATH, HOME: os.tmpdir(), SPIDER_BUCKET: 'bucket', AWS_REGION: 'us-east-1' },
      timeout: 60_000,
    });
    const out = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(out.node.split('.')[0]).toBe('22');
    expect(out.results).toEqual({ Fetch: 'function', Render: 'function', Learn: 'function', Apply: 'function' });
  });
});
