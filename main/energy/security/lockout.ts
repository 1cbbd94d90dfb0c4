import type { Clock } from '../../core/clock.js';

export const MAX_TRIES = 5;
export const LOCKOUT_MS = 60_000;

export type Attempt = { locked: false; triesLeft: number } | { locked: true; retryAfterMs: number };

/** The outcome of asking to evaluate one guess: a reservation to settle, or a refusal. */
export type Reservation =
  | { ok: true; settle(correct: boolean): Attempt | null }
  | { ok: false; reason: 'locked'; retryAfterMs: number }
  | { ok: false; reason: 'busy' };

interface Entry {
  fails: number;
  /** Guesses reserved and still being hashed: they count against the budget before their outcome is known. */
  inFlight: number;
  lockedUntil: number;
}

/**
 * Consecutive wrong passcodes, counted per client address so one guest cannot lock out the owner.
 * The fifth wrong try in a row locks that address for a minute; when it expires the count restarts.
 *
 * A guess is reserved before the slow hash (`reserve`) and settled after it, so wrong guesses
 * already known plus those still being hashed never exceed the budget: however many requests a
 * client sends at once, at most five guesses are evaluated per lockout period.
 */
export class Lockout {
  private readonly byAddress = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly maxTries = MAX_TRIES,
    private readonly lockMs = LOCKOUT_MS,
    private readonly maxAddresses = 1000,
  ) {}

  /** Client addresses remembered now: bounded by `maxAddresses`, released after a right guess or an expired lockout. */
  get size(): number {
    return this.byAddress.size;
  }

  /** Milliseconds left on this address's lockout, or 0. */
  lockedFor(address: string): number {
    const entry = this.byAddress.get(address);
    if (!entry || entry.lockedUntil === 0) return 0;
    const left = entry.lockedUntil - this.clock.now();
    if (left > 0) return left;
    // The lockout is over: the count restarts (guesses still being hashed keep their reservation).
    entry.lockedUntil = 0;
    entry.fails = 0;
    if (entry.inFlight === 0) this.byAddress.delete(address);
    return 0;
  }

  /**
   * Reserves one guess for `address`, or refuses it: `locked` while locked out, `busy` when the
   * guesses being hashed would, if all wrong, use up the remaining tries.
   */
  reserve(address: string): Reservation {
    const lockedMs = this.lockedFor(address);
    if (lockedMs > 0) return { ok: false, reason: 'locked', retryAfterMs: lockedMs };
    const entry = this.entry(address);
    if (entry.fails + entry.inFlight >= this.maxTries) return { ok: false, reason: 'busy' };
    entry.inFlight++;
    const failsBefore = entry.fails;
    let settled = false;
    return {
      ok: true,
      settle: (correct) => {
        if (settled) return null;
        settled = true;
        entry.inFlight--;
        if (correct) {
          // A right guess clears the wrong ones made before it; wrong guesses concurrent with it
          // (reserved or settled after it was reserved) still count.
          entry.fails = Math.max(0, entry.fails - failsBefore);
          if (entry.fails === 0 && entry.inFlight === 0 && entry.lockedUntil === 0) this.forget(address, entry);
          return null;
        }
        return this.recordFail(address, entry);
      },
    };
  }

  /** Records one wrong guess outside a reservation. */
  fail(address: string): Attempt {
    const lockedMs = this.lockedFor(address);
    if (lockedMs > 0) return { locked: true, retryAfterMs: lockedMs };
    return this.recordFail(address, this.entry(address));
  }

  succeed(address: string): void {
    const entry = this.byAddress.get(address);
    if (!entry) return;
    entry.fails = 0;
    if (entry.inFlight === 0 && entry.lockedUntil === 0) this.forget(address, entry);
  }

  private recordFail(address: string, entry: Entry): Attempt {
    if (entry.lockedUntil > this.clock.now()) return { locked: true, retryAfterMs: entry.lockedUntil - this.clock.now() };
    entry.fails++;
    if (!this.byAddress.has(address)) this.byAddress.set(address, entry);
    if (entry.fails >= this.maxTries) {
      entry.lockedUntil = this.clock.now() + this.lockMs;
      return { locked: true, retryAfterMs: this.lockMs };
    }
    return { locked: false, triesLeft: this.maxTries - entry.fails };
  }

  private entry(address: string): Entry {
    let entry = this.byAddress.get(address);
    if (entry) {
      // Most recently used last, so the bound below evicts the stalest address.
      this.byAddress.delete(address);
    } else {
      entry = { fails: 0, inFlight: 0, lockedUntil: 0 };
    }
    this.byAddress.set(address, entry);
    if (this.byAddress.size > this.maxAddresses) {
      for (const [key, e] of this.byAddress) {
        // Never evict an address with guesses in flight or a running lockout: that would reopen its budget.
        if (e.inFlight === 0 && e.lockedUntil <= this.clock.now()) {
          this.byAddress.delete(key);
          break;
        }
      }
    }
    return entry;
  }

  private forget(address: string, entry: Entry): void {
    if (this.byAddress.get(address) === entry) this.byAddress.delete(address);
  }
}
