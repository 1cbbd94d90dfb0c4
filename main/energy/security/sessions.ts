import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../core/clock.js';

export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface Session {
  token: string;
  /** Epoch ms. */
  expiresAt: number;
}

const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/**
 * Settings sessions, in memory only (a restart invalidates every token). Tokens are kept as
 * SHA-256 digests and looked up with a timing-safe compare against each live session.
 */
export class Sessions {
  private readonly live: Array<{ digest: Buffer; expiresAt: number }> = [];

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = SESSION_TTL_MS,
    private readonly max = 100,
  ) {}

  issue(): Session {
    this.prune();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.clock.now() + this.ttlMs;
    this.live.push({ digest: digest(token), expiresAt });
    // A bounded list: the oldest session goes first when someone unlocks over and over.
    if (this.live.length > this.max) this.live.shift();
    return { token, expiresAt };
  }

  /** True when `token` belongs to a session younger than the lifetime. */
  valid(token: string | null | undefined): boolean {
    return this.find(token) >= 0;
  }

  /** Revokes one session; false when the token matched none. */
  revoke(token: string | null | undefined): boolean {
    const i = this.find(token);
    if (i < 0) return false;
    this.live.splice(i, 1);
    return true;
  }

  revokeAll(): void {
    this.live.length = 0;
  }

  get count(): number {
    this.prune();
    return this.live.length;
  }

  private find(token: string | null | undefined): number {
    if (!token) return -1;
    this.prune();
    const d = digest(token);
    let found = -1;
    // No early exit: every live session is compared, whatever matches.
    this.live.forEach((s, i) => {
      if (timingSafeEqual(s.digest, d)) found = i;
    });
    return found;
  }

  private prune(): void {
    const now = this.clock.now();
    for (let i = this.live.length - 1; i >= 0; i--) if (this.live[i]!.expiresAt <= now) this.live.splice(i, 1);
  }
}
