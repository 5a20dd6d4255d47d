/**
 * Keeps one renderer (one Chromium) across the invocations of a warm Lambda container, and runs each
 * render under a deadline derived from the invocation's remaining time:
 *
 *   remaining time ──────────────────────────────────────────────┤ function timeout
 *   step budget (renderTimeoutMs) ──────────────┤ margin ┤ grace ┤
 *                                   hard deadline ───────┘
 *
 * The step is given `min(renderTimeoutMs, remaining - margin)` and should finish within it. If it does
 * not, the hard deadline (`remaining - margin / 2`) fails the record as retryable and throws the browser
 * away (closed in the background, bounded), so the handler still returns its partial batch response
 * before Lambda kills the invocation, and the next render starts a fresh browser. A budget below
 * `minBudgetMs` starts no render: StepNotStartedError, which the handler defers (no receive spent).
 */
import type { Context } from 'aws-lambda';
import type { Logger } from '../step/context';
import { DeadlineExceededError } from '../util/errors';
import { rejectAfter } from '../util/timeout';
import { recordBudget } from './sqs-records';

export interface Closable {
  close(): Promise<void>;
}

export interface RendererHolderOptions {
  /** Time kept back from the remaining time for reporting and cleanup (ms). */
  readonly marginMs?: number;
  /** Below this budget a render is not started (StepNotStartedError): the record is deferred, tried by a later invocation (ms). */
  readonly minBudgetMs?: number;
  /** Longest wait for a discarded browser to close (ms). */
  readonly closeTimeoutMs?: number;
}

export class RendererHolder<R extends Closable> {
  private current?: R;
  private readonly marginMs: number;
  private readonly minBudgetMs: number;
  private readonly closeTimeoutMs: number;

  constructor(
    private readonly create: () => R,
    private readonly logger: Logger,
    options: RendererHolderOptions = {},
  ) {
    this.marginMs = options.marginMs ?? 10_000;
    this.minBudgetMs = options.minBudgetMs ?? 5_000;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 3_000;
  }

  /** The warm renderer, created on first use. */
  get(): R {
    this.current ??= this.create();
    return this.current;
  }

  async withDeadline<T>(context: Pick<Context, 'getRemainingTimeInMillis'> | undefined, maxMs: number, run: (renderer: R, budgetMs: number) => Promise<T>): Promise<T> {
    const budget = recordBudget(context, maxMs, this.marginMs, this.minBudgetMs, 'a render');
    const remaining = context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY;
    const hardMs = Number.isFinite(remaining) ? Math.max(budget, remaining - this.marginMs / 2) : budget + this.marginMs / 2;
    const renderer = this.get();
    const work = run(renderer, budget);
    try {
      return await rejectAfter(work, hardMs, () => new DeadlineExceededError(`render did not finish within ${Math.round(hardMs)} ms`));
    } catch (error) {
      if (error instanceof DeadlineExceededError) {
        work.catch(() => {}); // the abandoned render may still reject later
        await this.discard(renderer);
      }
      throw error;
    }
  }

  /** Closes the warm renderer (bounded in time); the next render starts a new one. */
  async discard(renderer: R | undefined = this.current): Promise<void> {
    if (!renderer) return;
    if (this.current === renderer) this.current = undefined;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.closeTimeoutMs);
    });
    try {
      await Promise.race([renderer.close().catch((error) => this.logger.warn('closing the renderer failed', { error: String(error) })), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
