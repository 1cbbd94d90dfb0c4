import fs from 'node:fs';
import Database from 'better-sqlite3';
import { yieldToIo } from '../../core/lifecycle.js';
import type { Logger } from '../../core/logger.js';
import type { PowerSample } from '../tariff/ledger.js';

/**
 * One feature's share of the stored polls read back after a start (today's cost, the days a table
 * lacks): every poll at or after `from`, oldest first, to `feed`; then `done` with how many it got.
 */
export interface HistoryReplay {
  from: number;
  feed(p: PowerSample): void;
  done(polls: number): void;
}

/**
 * Polls read per batch; between batches, requests and polls that came meanwhile are served. A poll
 * is several Modbus requests, each waiting for a turn: at 1,024 rows a batch, polls were up to
 * 100–280 ms late under heavy reads after a first start on a week of history.
 */
export const REPLAY_BATCH = 256;

/**
 * Reads the stored polls from the earliest `from` of `replays` up to `to` once, for all of them,
 * on a separate read-only connection (WAL lets it read beside the writer), in batches with a turn
 * of the event loop between them: a week of 1 s polls keeps the port answering and the polls going
 * instead of holding the start for seconds. Each replay gets its polls in order, then `done`; a
 * stopped replay (`signal`) calls no `done`. A failed read is logged and still ends every replay.
 */
export async function replayPolls(file: string, replays: readonly HistoryReplay[], to: number, opts: { logger: Logger; signal?: AbortSignal; batch?: number }): Promise<void> {
  const counts = replays.map(() => 0);
  const batch = opts.batch ?? REPLAY_BATCH;
  let db: Database.Database | null = null;
  try {
    if (!replays.length || !fs.existsSync(file)) return;
    // The caller goes on first (the service starts its poller); then each batch takes its turn.
    await yieldToIo();
    if (opts.signal?.aborted) return;
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    const page = db.prepare('SELECT t, solar, home, grid, battery FROM samples WHERE t >= ? AND t <= ? ORDER BY t LIMIT ?');
    let lo = Math.min(...replays.map((r) => r.from));
    for (;;) {
      const rows = page.all(lo, to, batch) as PowerSample[];
      for (const row of rows) {
        for (let i = 0; i < replays.length; i++) {
          if (row.t < replays[i]!.from) continue;
          replays[i]!.feed(row);
          counts[i]!++;
        }
      }
      if (rows.length < batch) break;
      lo = rows[rows.length - 1]!.t + 1;
      await yieldToIo();
      if (opts.signal?.aborted) return;
    }
  } catch (err) {
    opts.logger.error({ err }, 'stored polls could not be read back from history');
  } finally {
    db?.close();
    if (!opts.signal?.aborted) replays.forEach((r, i) => r.done(counts[i]!));
  }
}

/**
 * A ledger's live polls, held while stored polls are read back into it: a read-back runs in
 * batches, so polls keep coming; fed first they would make the ledger skip every older stored one.
 * Held polls follow the read-back into whatever ledger is current when it is done.
 */
export class LiveFeed {
  #held: PowerSample[] | null = null;

  constructor(private readonly current: () => { feed(p: PowerSample): void }) {}

  /** A live poll: into the current ledger, or held while a read-back runs. */
  live(p: PowerSample): void {
    if (this.#held) this.#held.push(p);
    else this.current().feed(p);
  }

  /** A read-back into `target` from `from`; live polls wait until it is done, then follow it. */
  replay(target: { feed(p: PowerSample): void }, from: number, done?: (polls: number) => void): HistoryReplay {
    this.#held ??= [];
    return {
      from,
      feed: (p) => target.feed(p),
      done: (polls) => {
        const held = this.#held ?? [];
        this.#held = null;
        for (const p of held) this.current().feed(p);
        done?.(polls);
      },
    };
  }
}
