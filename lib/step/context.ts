/** What every step receives: the store, the queues it sends to, the config and a logger. No AWS here. */
import type { Config } from '../config/config';
import type { Queues } from '../queue/queue';
import type { Store } from '../store/store';

export interface Logger {
  debug(message: string, extra?: Record<string, unknown>): void;
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export interface StepContext {
  readonly store: Store;
  readonly queues: Queues;
  readonly config: Config;
  readonly logger: Logger;
}
