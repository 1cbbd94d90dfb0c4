import type { Clock } from '../../core/clock.js';

export const MAX_TRIES = 5;
export const LOCKOUT_MS = 60_000;

export type Attempt = { locked: false; triesLeft: number } | { locked: true; retryAfterMs: number };

/**
 * Consecutive wrong passcodes, counted per client address so one guest cannot lock out the owner.
 * The fifth wrong try in a row locks that address for a minute; when it expires the count restarts.
 */
export class Lockout {
  private readonly byAddress = new Map<string, { fails: number; lockedUntil: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxTries = MAX_TRIES,
    private readonly lockMs = LOCKOUT_MS,
    private readonly maxAddresses = 1000,
  ) {}

  /** Milliseconds left on this address's lockout, or 0. */
  lockedFor(address: string): number {
    const entry = this.byAddress.get(address);
    if (!entry || entry.lockedUntil === 0) return 0;
    const left = entry.lockedUntil - this.clock.now();
    if (left > 0) return left;
    this.byAddress.delete(address);
    return 0;
  }

  fail(address: string): Attempt {
    if (this.lockedFor(address) > 0) return { locked: true, retryAfterMs: this.lockedFor(address) };
    const entry = this.byAddress.get(address) ?? { fails: 0, lockedUntil: 0 };
    entry.fails++;
    this.byAddress.delete(address);
    this.byAddress.set(address, entry);
    if (this.byAddress.size > this.maxAddresses) this.byAddress.delete(this.byAddress.keys().next().value!);
    if (entry.fails >= this.maxTries) {
      entry.lockedUntil = this.clock.now() + this.lockMs;
      return { locked: true, retryAfterMs: this.lockMs };
    }
    return { locked: false, triesLeft: this.maxTries - entry.fails };
  }

  succeed(address: string): void {
    this.byAddress.delete(address);
  }
}
