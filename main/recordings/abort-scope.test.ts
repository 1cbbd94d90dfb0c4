import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortScope } from './abort-scope.js';

describe('abort scope', () => {
  it('follows its parent and leaves no listener behind once disposed', () => {
    const parent = new AbortController();
    for (let i = 0; i < 50; i++) abortScope(parent.signal, 10_000).dispose();
    expect(EventEmitter.getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    const scope = abortScope(parent.signal, 10_000);
    parent.abort(new Error('stopping'));
    expect(scope.signal.aborted).toBe(true);
    expect((scope.signal.reason as Error).message).toBe('stopping');
    scope.dispose();
  });
});
