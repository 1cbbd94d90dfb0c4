import fs from 'node:fs';
import path from 'node:path';

/** One register write (or would-be write) as the audit log records it. */
export interface AuditWrite {
  register: string;
  address: number;
  value: number;
  /** What the plant held before (null when not read: a dry run with the gateway away). */
  before: number | null;
  /** The value read back after the write; null for a dry run or a write that failed. */
  readBack: number | null;
}

export interface AuditEntry {
  /** ISO 8601. */
  at: string;
  /** decision: a mode chosen or ended; write / dry-run: registers written or that would be; refused: a rail said no; other: another controller changed a register; stale: readings stopped. */
  kind: 'decision' | 'write' | 'dry-run' | 'refused' | 'other-controller' | 'stale' | 'error';
  /** Who or what decided: the owner, the price plan, a safety rail, the mode's end. */
  by: 'owner' | 'plan' | 'rail' | 'end' | 'mqtt';
  reason: string;
  writes?: AuditWrite[];
}

/** Most entries the file keeps (older ones are dropped when it is rewritten). */
const KEEP = 5000;

/**
 * The audit log of every decision and write, one JSON object a line in the data folder
 * (`energy/control-audit.jsonl`): appended, and cut to the newest entries when it grows past twice
 * what it keeps. Read by GET /api/control/audit and the dashboard's control card.
 */
export class AuditLog {
  private lines: number | null = null;

  constructor(private readonly file: string) {}

  append(entry: AuditEntry): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.appendFileSync(this.file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    this.lines = (this.lines ?? this.read().length) + 1;
    if (this.lines > 2 * KEEP) {
      const kept = this.read().slice(-KEEP);
      fs.writeFileSync(this.file, kept.map((e) => JSON.stringify(e)).join('\n') + '\n', { mode: 0o600 });
      this.lines = kept.length;
    }
  }

  /** Entries in time order (oldest first); a line that does not parse is skipped. */
  read(): AuditEntry[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    const out: AuditEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as AuditEntry);
      } catch {
        // a torn last line after a crash
      }
    }
    return out;
  }

  /** The newest `limit` entries, newest first. */
  latest(limit: number): AuditEntry[] {
    return this.read().slice(-limit).reverse();
  }
}
