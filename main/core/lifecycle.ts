/** What every service returns: `start()` brings it up, `stop()` releases every socket, timer and handle. */
export interface Service {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Collects cleanups in the order resources were acquired and runs them in reverse on `run()`.
 * A failing cleanup does not stop the others.
 */
export function createDisposer() {
  const tasks: Array<() => unknown> = [];
  return {
    add(task: () => unknown): void {
      tasks.push(task);
    },
    async run(): Promise<void> {
      const errors: unknown[] = [];
      while (tasks.length) {
        const task = tasks.pop()!;
        try {
          await task();
        } catch (err) {
          errors.push(err);
        }
      }
      if (errors.length) throw new AggregateError(errors, 'some resources failed to close');
    },
  };
}

/**
 * Lets the event loop take in waiting I/O (an HTTP request, a socket reply) before the caller goes
 * on: a long start (the recording sync's, after the bridge listens) in steps with these between
 * keeps the port that is already open answering.
 */
export const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
