import type { Logger } from './logger.js';

/** The listener the headless entry installs: an unhandled rejection is logged and the process keeps running. */
export function unhandledRejectionLogger(logger: Logger): (reason: unknown) => void {
  return (reason) => {
    logger.error({ err: reason instanceof Error ? reason : new Error(String(reason)) }, 'unhandled promise rejection (process keeps running)');
  };
}

/** Installs the listener; returns the function that removes it. */
export function installUnhandledRejectionLogging(logger: Logger): () => void {
  const listener = unhandledRejectionLogger(logger);
  process.on('unhandledRejection', listener);
  return () => process.off('unhandledRejection', listener);
}
