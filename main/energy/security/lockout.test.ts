import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { Lockout } from './lockout.js';

// spec/energy-bridge.md (Authentication): the fifth consecutive wrong passcode locks; the lockout
// lasts one minute. Counted per client address (a guest cannot lock out the owner).
const MINUTE = 60_000;
const A = '192.168.1.20';
const B = '192.168.1.21';

const settleWrong = (l: Lockout, addr: string) => {
  const r = l.reserve(addr);
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r.settle(false);
};

describe('passcode lockout: five wrong tries, one minute', () => {
  it('counts down four tries, locks on the fifth for exactly one minute', () => {
    const clock = createManualClock();
    const l = new Lockout(clock);
    expect(l.fail(A)).toEqual({ locked: false, triesLeft: 4 });
    expect(l.fail(A)).toEqual({ locked: false, triesLeft: 3 });
    expect(l.fail(A)).toEqual({ locked: false, triesLeft: 2 });
    expect(l.fail(A)).toEqual({ locked: false, triesLeft: 1 });
    expect(l.lockedFor(A)).toBe(0);
    expect(l.fail(A)).toEqual({ locked: true, retryAfterMs: MINUTE });
    expect(l.lockedFor(A)).toBe(MINUTE);
    clock.advance(MINUTE - 1);
    expect(l.lockedFor(A)).toBe(1);
    expect(l.fail(A)).toEqual({ locked: true, retryAfterMs: 1 });
    expect(l.reserve(A)).toEqual({ ok: false, reason: 'locked', retryAfterMs: 1 });
    clock.advance(1);
    expect(l.lockedFor(A)).toBe(0);
    // When the minute is over the count restarts at five.
    expect(l.fail(A)).toEqual({ locked: false, triesLeft: 4 });
  });

  it('the same through reservations settled wrong', () => {
    const clock = createManualClock();
    const l = new Lockout(clock);
    for (const left of [4, 3, 2, 1]) expect(settleWrong(l, A)).toEqual({ locked: false, triesLeft: left });
    expect(settleWrong(l, A)).toEqual({ locked: true, retryAfterMs: MINUTE });
    clock.advance(30_000);
    expect(l.reserve(A)).toEqual({ ok: false, reason: 'locked', retryAfterMs: 30_000 });
    clock.advance(30_000);
    expect(settleWrong(l, A)).toEqual({ locked: false, triesLeft: 4 });
  });

  it('tries are consecutive: a right passcode resets the count', () => {
    const l = new Lockout(createManualClock());
    settleWrong(l, A);
    settleWrong(l, A);
    settleWrong(l, A);
    const right = l.reserve(A);
    expect(right.ok).toBe(true);
    if (right.ok) expect(right.settle(true)).toBeNull();
    expect(settleWrong(l, A)).toEqual({ locked: false, triesLeft: 4 });
    l.fail(A);
    l.succeed(A);
    expect(l.fail(A)).toEqual({ locked: false, triesLeft: 4 });
  });

  it('one address locked out does not lock another', () => {
    const l = new Lockout(createManualClock());
    for (let i = 0; i < 5; i++) l.fail(A);
    expect(l.lockedFor(A)).toBe(MINUTE);
    expect(l.lockedFor(B)).toBe(0);
    expect(l.reserve(B).ok).toBe(true);
  });

  it('guesses in flight count: at most five are evaluated at once, the sixth is busy', () => {
    const l = new Lockout(createManualClock());
    const held = Array.from({ length: 5 }, () => l.reserve(A));
    expect(held.every((r) => r.ok)).toBe(true);
    expect(l.reserve(A)).toEqual({ ok: false, reason: 'busy' });
    expect(l.reserve(B).ok).toBe(true);
    // Four wrong and a right one concurrent with them: the four still count.
    const outcomes = held.map((r, i) => (r.ok ? r.settle(i === 4) : 'refused'));
    expect(outcomes).toEqual([{ locked: false, triesLeft: 4 }, { locked: false, triesLeft: 3 }, { locked: false, triesLeft: 2 }, { locked: false, triesLeft: 1 }, null]);
    expect(l.fail(A)).toEqual({ locked: true, retryAfterMs: MINUTE });
  });

  it('a right guess clears only the wrong ones made before it', () => {
    const l = new Lockout(createManualClock());
    l.fail(A);
    l.fail(A);
    const right = l.reserve(A);
    l.fail(A); // concurrent with the right guess: still counts
    if (right.ok) expect(right.settle(true)).toBeNull();
    expect(l.fail(A)).toEqual({ locked: false, triesLeft: 3 });
  });

  it('a reservation settles once; a second settle changes nothing', () => {
    const l = new Lockout(createManualClock());
    const r = l.reserve(A);
    if (!r.ok) throw new Error('refused');
    expect(r.settle(false)).toEqual({ locked: false, triesLeft: 4 });
    expect(r.settle(false)).toBeNull();
    expect(r.settle(true)).toBeNull();
    expect(l.fail(A)).toEqual({ locked: false, triesLeft: 3 });
  });

  it('a wrong guess settled during a lockout reports the time left and does not extend it', () => {
    const clock = createManualClock();
    const l = new Lockout(clock);
    const late = l.reserve(A);
    for (let i = 0; i < 4; i++) l.fail(A);
    expect(l.reserve(A)).toEqual({ ok: false, reason: 'busy' });
    if (!late.ok) throw new Error('refused');
    expect(late.settle(false)).toEqual({ locked: true, retryAfterMs: MINUTE });
    clock.advance(20_000);
    expect(l.lockedFor(A)).toBe(40_000);
  });

  it('a guess still hashing when the lockout ends keeps its reservation', () => {
    const clock = createManualClock();
    const l = new Lockout(clock);
    for (let i = 0; i < 4; i++) l.fail(A);
    const slow = l.reserve(A);
    expect(slow.ok).toBe(true);
    l.fail(A); // the fifth wrong try locks
    clock.advance(MINUTE);
    expect(l.lockedFor(A)).toBe(0);
    // Four fresh guesses fit next to the one in flight, the fifth would exceed the budget.
    for (let i = 0; i < 4; i++) expect(l.reserve(A).ok).toBe(true);
    expect(l.reserve(A)).toEqual({ ok: false, reason: 'busy' });
    if (slow.ok) expect(slow.settle(false)).toEqual({ locked: false, triesLeft: 4 });
  });

  it('bounds the addresses it remembers, evicting the stalest idle one but never a running lockout', () => {
    const clock = createManualClock();
    const l = new Lockout(clock, 5, MINUTE, 3);
    for (let i = 0; i < 5; i++) l.fail('10.0.0.1');
    l.fail('10.0.0.2');
    l.fail('10.0.0.3');
    l.fail('10.0.0.4'); // over the bound: 10.0.0.2 (idle, oldest) goes, the locked 10.0.0.1 stays
    expect(l.lockedFor('10.0.0.1')).toBe(MINUTE);
    expect(l.fail('10.0.0.3')).toEqual({ locked: false, triesLeft: 3 });
    expect(l.fail('10.0.0.4')).toEqual({ locked: false, triesLeft: 3 });
    expect(l.fail('10.0.0.2')).toEqual({ locked: false, triesLeft: 4 });
  });

  it('an address used again moves to the back of the eviction order', () => {
    const l = new Lockout(createManualClock(), 5, MINUTE, 2);
    l.fail('10.0.0.1');
    l.fail('10.0.0.2');
    l.fail('10.0.0.1'); // 10.0.0.1 is now the most recent
    l.fail('10.0.0.3'); // evicts 10.0.0.2
    expect(l.fail('10.0.0.1')).toEqual({ locked: false, triesLeft: 2 });
  });

  it('never evicts an address with a guess in flight', () => {
    const l = new Lockout(createManualClock(), 5, MINUTE, 1);
    const r = l.reserve('10.0.0.1');
    l.fail('10.0.0.2');
    for (let i = 0; i < 4; i++) l.reserve('10.0.0.1');
    expect(l.reserve('10.0.0.1')).toEqual({ ok: false, reason: 'busy' });
    if (r.ok) r.settle(true);
  });

  it('succeed on an unknown address is harmless', () => {
    const l = new Lockout(createManualClock());
    l.succeed(A);
    expect(l.lockedFor(A)).toBe(0);
    expect(l.fail(A)).toEqual({ locked: false, triesLeft: 4 });
  });

  it('a wrong guess settled while its address is locked out reports the time left and does not extend it', () => {
    const clock = createManualClock();
    const l = new Lockout(clock);
    const slow = l.reserve(A);
    for (let i = 0; i < 4; i++) l.fail(A);
    expect(l.fail(A)).toEqual({ locked: true, retryAfterMs: MINUTE });
    clock.advance(20_000);
    if (!slow.ok) throw new Error('refused');
    expect(slow.settle(false)).toEqual({ locked: true, retryAfterMs: 40_000 });
    expect(l.lockedFor(A)).toBe(40_000);
  });

  it('memory: an address is forgotten after a right guess or once its lockout is over', () => {
    const clock = createManualClock();
    const l = new Lockout(clock);
    expect(l.size).toBe(0);
    l.fail(A);
    l.fail(B);
    expect(l.size).toBe(2);
    l.succeed(A);
    expect(l.size).toBe(1);
    const r = l.reserve(B);
    expect(l.size).toBe(1);
    if (r.ok) r.settle(true);
    expect(l.size).toBe(0);
    for (let i = 0; i < 5; i++) l.fail(A);
    l.succeed(A); // a right guess does not end a running lockout
    expect(l.size).toBe(1);
    expect(l.lockedFor(A)).toBe(MINUTE);
    clock.advance(MINUTE);
    expect(l.lockedFor(A)).toBe(0);
    expect(l.size).toBe(0);
  });

  it('memory: a guess in flight keeps its address remembered through a right guess and an expired lockout', () => {
    const clock = createManualClock();
    const l = new Lockout(clock);
    const slow = l.reserve(A);
    const right = l.reserve(A);
    if (right.ok) right.settle(true);
    expect(l.size).toBe(1);
    l.succeed(A);
    expect(l.size).toBe(1);
    for (let i = 0; i < 4; i++) l.fail(A);
    clock.advance(MINUTE);
    expect(l.lockedFor(A)).toBe(0);
    expect(l.size).toBe(1);
    // A right guess settled while wrong ones are still counted keeps the address too.
    const another = l.reserve(A);
    l.fail(A);
    if (another.ok) another.settle(true);
    expect(l.size).toBe(1);
    if (slow.ok) slow.settle(false);
    expect(l.size).toBe(1);
  });

  it('memory: a right guess during a lockout leaves the lockout and the address in place', () => {
    const clock = createManualClock();
    const l = new Lockout(clock);
    const right = l.reserve(A);
    for (let i = 0; i < 4; i++) l.fail(A);
    l.fail(A);
    if (right.ok) expect(right.settle(true)).toBeNull();
    expect(l.size).toBe(1);
    expect(l.lockedFor(A)).toBe(MINUTE);
  });

  it('memory: an address whose lockout ends exactly now can be evicted for a new one', () => {
    const clock = createManualClock();
    const l = new Lockout(clock, 5, MINUTE, 1);
    for (let i = 0; i < 5; i++) l.fail(A);
    clock.advance(MINUTE);
    l.fail(B);
    expect(l.size).toBe(1);
  });

  it('memory: a stale settle of a forgotten address does not remove its newer entry', () => {
    const clock = createManualClock();
    const l = new Lockout(clock);
    const first = l.reserve(A);
    if (first.ok) first.settle(true);
    expect(l.size).toBe(0);
    l.fail(A);
    l.fail(A);
    expect(l.size).toBe(1);
    expect(l.fail(A)).toEqual({ locked: false, triesLeft: 2 });
  });
});

