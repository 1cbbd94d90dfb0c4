import { describe, expect, it } from 'vitest';
import { startFeatures, type RunningFeature } from './feature.js';

/** Features that write what happens to them into one journal. */
function journal() {
  const log: string[] = [];
  const feature = (name: string, opts: { failStart?: boolean; failStop?: boolean } = {}): RunningFeature & { name: string } => ({
    name,
    start() {
      log.push(`start ${name}`);
      if (opts.failStart) throw new Error(`${name} cannot start`);
    },
    async stop() {
      log.push(`stop ${name}`);
      if (opts.failStop) throw new Error(`${name} cannot stop`);
    },
  });
  return { log, feature };
}

describe('startFeatures: the one start and stop of a feature list (both services)', () => {
  it('starts in list order and stops in reverse; a second stop does nothing', async () => {
    const { log, feature } = journal();
    const stop = await startFeatures([feature('a'), { name: 'settings only' }, feature('b')], () => undefined);
    expect(log).toEqual(['start a', 'start b']);
    await stop();
    await stop();
    expect(log).toEqual(['start a', 'start b', 'stop b', 'stop a']);
  });

  it('a failing stop is handed to the caller and the others still stop', async () => {
    const { log, feature } = journal();
    const failed: string[] = [];
    const stop = await startFeatures([feature('a'), feature('b', { failStop: true }), feature('c')], (err, f) => failed.push(`${f.name}: ${(err as Error).message}`));
    await stop();
    expect(log.slice(3)).toEqual(['stop c', 'stop b', 'stop a']);
    expect(failed).toEqual(['b: b cannot stop']);
  });

  it('a failing start stops the ones started before it (and itself) and fails the start', async () => {
    const { log, feature } = journal();
    await expect(startFeatures([feature('a'), feature('b', { failStart: true }), feature('c')], () => undefined)).rejects.toThrow('b cannot start');
    expect(log).toEqual(['start a', 'start b', 'stop b', 'stop a']);
  });
});
