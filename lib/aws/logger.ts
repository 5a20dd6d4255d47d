/** Powertools' structured JSON logger, seen through the steps' small Logger interface. */
import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Logger } from '../step/context';

export function stepLogger(logger: PowertoolsLogger): Logger {
  return {
    debug: (message, extra) => (extra ? logger.debug(message, extra) : logger.debug(message)),
    info: (message, extra) => (extra ? logger.info(message, extra) : logger.info(message)),
    warn: (message, extra) => (extra ? logger.warn(message, extra) : logger.warn(message)),
    error: (message, extra) => (extra ? logger.error(message, extra) : logger.error(message)),
  };
}
