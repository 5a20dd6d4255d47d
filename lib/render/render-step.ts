/**
 * The render step: load one URL in Chromium (live, or its archived copy answered at its own URL),
 * write the feature document and the rendered DOM to the store, then hand the page on to apply
 * and signal learn for its site.
 */
import type { StepContext } from '../pipeline/context';
import { getText } from '../store/store';
import { keys, normalizeUrl, pageIdOf, siteOf } from '../store/keys';
import { putJson } from '../store/store';
import { FEATURE_DOCUMENT_VERSION, FeatureDocumentSchema, type FeatureDocument } from '../types/feature-document';
import type { RenderMessage } from '../types/messages';
import { NonRetryableError } from '../util/errors';
import type { Renderer } from './browser';

export interface RenderContext extends StepContext {
  readonly renderer: Renderer;
}

export interface RenderOutcome {
  readonly site: string;
  readonly pageId: string;
  readonly blocks: number;
  readonly elapsedMs: number;
}

export async function renderStep(message: RenderMessage, ctx: RenderContext): Promise<RenderOutcome> {
  const url = normalizeUrl(message.url);
  const site = siteOf(url);
  const pageId = pageIdOf(url);

  let archivedHtml: string | undefined;
  if (message.archiveKey) {
    archivedHtml = await getText(ctx.store, message.archiveKey);
    if (archivedHtml === undefined) throw new NonRetryableError(`archived copy ${message.archiveKey} is not in the store`);
    if (Buffer.byteLength(archivedHtml) > ctx.config.maxHtmlBytes) {
      throw new NonRetryableError(`archived HTML is larger than the ${ctx.config.maxHtmlBytes}-byte cap`);
    }
  }

  const result = await ctx.renderer.render({ url, archivedHtml });
  const snapshotKey = keys.snapshot(site, pageId);
  const doc: FeatureDocument = FeatureDocumentSchema.parse({
    version: FEATURE_DOCUMENT_VERSION,
    pageId,
    url,
    finalUrl: result.finalUrl,
    site,
    renderedAt: new Date().toISOString(),
    viewport: { width: ctx.config.viewportWidth, height: ctx.config.viewportHeight },
    snapshotKey,
    source: archivedHtml === undefined ? 'live' : 'archive',
    ...result.collected,
  });

  // Snapshot first: a feature document always has its snapshot.
  await ctx.store.put(snapshotKey, result.snapshot, { contentType: 'text/html; charset=utf-8' });
  await putJson(ctx.store, keys.features(site, pageId), doc);

  await ctx.queues.apply.send({ v: 1, site, pageId, reason: 'rendered' });
  await ctx.queues.learn.send({ v: 1, site, force: false }, { groupId: site, deduplicationId: `${site}:${pageId}` });
  ctx.logger.info('rendered', { url, site, pageId, blocks: doc.blocks.length, ms: result.elapsedMs });
  return { site, pageId, blocks: doc.blocks.length, elapsedMs: result.elapsedMs };
}
