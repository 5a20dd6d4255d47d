/**
 * `spider demo` (and `npm start` with no arguments): a synthetic multi-template news site served on
 * 127.0.0.1, run through the whole embedded pipeline, with the extraction quality measured against
 * the generator's truth.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config';
import { generateSite, serveSite, articlesOf, truthFor, type GeneratedSite, type TemplateId } from '../demo/index';
import { aggregate, scorePage, type PageScore } from '../metric/metric';
import { EmbeddedPipeline } from '../pipeline/embedded';
import type { RendererOptions } from '../render/browser';
import { keys, pageIdOf, siteOf } from '../store/keys';
import { getJson } from '../store/store';
import { ArticleDocumentSchema } from '../types/article-document';
import { RulesDocumentSchema } from '../types/rules-document';
import { parseMachineDate, sameDate } from '../text/dates';
import { sameByline, sameTitle } from '../text/match';
import { plural } from '../text/plural';
import { createProgress, type Progress } from './progress';

export interface DemoOptions {
  readonly config: Config;
  /** Progress of the pipeline while it runs (default: dead letters only). */
  readonly progress?: (pipeline: EmbeddedPipeline) => Progress;
  readonly pagesPerTemplate: number;
  /** Article pages per template submitted first; the rest are submitted once those are done. */
  readonly train: number;
  readonly out?: NodeJS.WritableStream;
  /** Stops the demo (SIGTERM, Ctrl-C): the runs return, then the demo throws the signal's reason. */
  readonly signal?: AbortSignal;
  /** The renderer's options (the CLI's: puppeteer is not to handle the signals the CLI stops on). */
  readonly renderer?: RendererOptions;
}

/** Pages whose article gives the generator's title, byline and date (the rules' where they give one, else the page's metadata). */
export type FieldsRight = Record<'title' | 'byline' | 'published', number>;

export interface DemoReport {
  readonly site: string;
  readonly rulesVersion?: number;
  readonly selectors: string[];
  readonly perTemplate: Record<string, { pages: number; rules: number; f1: number; precision: number; recall: number; fields: FieldsRight }>;
  readonly deadLetters: number;
}

export async function runDemo(options: DemoOptions): Promise<DemoReport> {
  const out = options.out ?? process.stdout;
  const dataDir = path.join(options.config.dataDir, 'demo');
  await rm(dataDir, { recursive: true, force: true });
  const generated: GeneratedSite = generateSite({ seed: 'demo', pagesPerTemplate: options.pagesPerTemplate, host: 'news-demo' });
  // Chromium resolves *.localhost to loopback by itself, so the site gets a name of its own.
  const served = await serveSite(generated, { hostname: 'news-demo.localhost' });
  // The rules learned from the first pages extract the rest: no relearn in between, so every later
  // page is one the rules have never seen.
  // The egress guard refuses loopback unless allowlisted: the demo allowlists its own site (and, being
  // our own server on this machine, does not rate-limit itself).
  const pipeline = await new EmbeddedPipeline({
    ...options.config,
    dataDir,
    relearnAfter: 1000,
    allowHosts: [...options.config.allowHosts, new URL(served.origin).host],
    hostIntervalMs: 0,
  }, { renderer: options.renderer }).open({ exclusive: true });
  const say = (line = '') => out.write(line + '\n');
  try {
    const articles = articlesOf(generated);
    const templates = [...new Set(articles.map((a) => a.template!))];
    const first = templates.flatMap((t) => articlesOf(generated, t).slice(0, options.train));
    const rest = articles.filter((a) => !first.includes(a));
    say(`demo: ${generated.name} at ${served.origin} — ${plural(articles.length, 'article')} in ${plural(templates.length, 'template')} (${templates.join(', ')})`);
    say(`data folder: ${dataDir}`);
    // Created after the lines above: on a terminal the status line is drawn below them.
    const progress = options.progress?.(pipeline) ?? createProgress({ mode: 'quiet', counts: () => pipeline.queueCounts(), urlsWaiting: () => pipeline.urlsWaiting() });

    const run = async () => {
      await pipeline.run({ onEvent: progress.onEvent, signal: options.signal });
      if (options.signal?.aborted) {
        process.stderr.write(progress.stop().line + '\n');
        options.signal.throwIfAborted();
      }
    };
    await pipeline.submit(first.map((p) => ({ url: served.url(p.path) })));
    await run();
    // Learn from all of the first pages (a learn may already have run on the first five).
    await pipeline.relearn(siteOf(served.origin));
    await run();
    await pipeline.submit([{ url: served.url('/') }, ...rest.map((p) => ({ url: served.url(p.path) }))]);
    await run();
    process.stderr.write(progress.stop().line + '\n');

    const site = siteOf(served.origin);
    const rules = await getJson(pipeline.store, keys.rules(site), (v) => RulesDocumentSchema.parse(v));
    say();
    if (rules) {
      say(`learned rules v${rules.rulesVersion} for ${site} from ${plural(rules.learnedFrom.length, 'page')} (${plural(rules.clusters.length, 'cluster')}, ${rules.clusters.filter((c) => c.chosen).length} chosen):`);
      for (const s of rules.content.selectors) say(`  ${s}`);
      if (rules.content.dek?.length) {
        say('dek (the standfirst, at the head of the body):');
        for (const s of rules.content.dek) say(`  ${s}`);
      }
      if (rules.content.header?.length) {
        say('header (between headline and body):');
        for (const s of rules.content.header) say(`  ${s}`);
      }
      if (rules.content.clean.length) {
        say('cleaned out:');
        for (const s of rules.content.clean) say(`  ${s}`);
      }
      say(`self-check on the training pages: precision ${rules.selfCheck.precision.toFixed(3)}, recall ${rules.selfCheck.recall.toFixed(3)}`);
      if (rules.templates?.length) {
        // the selectors above are the rules of every page; each layout's own rules serve its pages
        say(`${rules.templates.length} templates, each layout's pages learned on their own (a page is served by the one whose layout it matches):`);
        rules.templates.forEach((t, i) => say(`  template ${i} (${plural(t.learnedFrom.length, 'page')}): ${plural(t.content.selectors.length, 'selector')}, first ${t.content.selectors[0]}`));
      }
    } else {
      say(`no rules learned for ${site}`);
    }

    const learnedFrom = new Set(rules?.learnedFrom ?? []);
    const perTemplate: DemoReport['perTemplate'] = {};
    say();
    say("extraction quality on pages the rules were not learned from (the article's word 4-grams against the generator's text; title, byline and date: pages that give the generator's):");
    say('  template   pages  by rules  precision  recall     F1   title  byline    date');
    for (const template of templates as TemplateId[]) {
      const scores: PageScore[] = [];
      let byRules = 0;
      const fields: FieldsRight = { title: 0, byline: 0, published: 0 };
      for (const page of articlesOf(generated, template)) {
        const url = served.url(page.path);
        const pageId = pageIdOf(url);
        if (learnedFrom.has(pageId)) continue;
        const article = await getJson(pipeline.store, keys.article(site, pageId), (v) => ArticleDocumentSchema.parse(v));
        if (article?.method === 'rules') byRules++;
        // the article's text as apply gives it: the dek the page shows (when the rules tell it), then the body
        const truth = truthFor(generated, page.path)!;
        scores.push(scorePage(article?.text ?? '', [truth.dek, truth.bodyText].filter(Boolean).join('\n')));
        if (sameTitle(article?.title, truth.title)) fields.title++;
        if (sameByline(article?.byline, truth.byline)) fields.byline++;
        if (article?.published && sameDate(parseMachineDate(article.published), parseMachineDate(truth.published))) fields.published++;
      }
      const a = aggregate(scores);
      perTemplate[template] = { pages: scores.length, rules: byRules, f1: a.f1, precision: a.precision, recall: a.recall, fields };
      const right = (n: number) => `${n}/${scores.length}`.padStart(7);
      say(`  ${template.padEnd(9)} ${String(scores.length).padStart(6)} ${String(byRules).padStart(9)} ${a.precision.toFixed(3).padStart(10)} ${a.recall.toFixed(3).padStart(7)} ${a.f1.toFixed(3).padStart(6)} ${right(fields.title)} ${right(fields.byline)} ${right(fields.published)}`);
    }
    const home = await getJson(pipeline.store, keys.article(site, pageIdOf(served.url('/'))), (v) => ArticleDocumentSchema.parse(v));
    if (home) say(`home page: ${home.method}${home.notArticle ? ', marked as not an article' : ''}, ${plural(home.wordCount, 'word')}`);
    const dead = pipeline.deadLetters();
    say(`dead letters: ${dead.length}`);
    say();
    say(`read them: npm start -- --data-dir ${dataDir} articles`);
    return { site, rulesVersion: rules?.rulesVersion, selectors: rules?.content.selectors ?? [], perTemplate, deadLetters: dead.length };
  } finally {
    await pipeline.close();
    await served.close();
  }
}
