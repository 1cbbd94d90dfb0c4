import type { Logger } from '../../core/logger.js';
import type { DidlItem } from '../box/didl.js';
import { listingSaysRecording } from '../box/sizes.js';
import type { RecordingRow, RecordingsStore } from '../store/recordings-store.js';
import type { FlightGuard } from './single-flight.js';

const norm = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();

/** What the box says about one listed recording, besides its id. */
export interface ListedRecording {
  item: Pick<DidlItem, 'id' | 'title' | 'recordedStart' | 'size'>;
  /** The show folder's title on the box. */
  folderTitle: string;
  boxUdn: string;
}

/**
 * Whether a stored row and a listed item are the same recording: same box, show folder, title and
 * recorded start (a row stored before start times were kept matches on the rest), and for a
 * finished row the same listing size. A row not finished may have grown: its size is not identity.
 */
export function sameRecording(row: RecordingRow, l: ListedRecording): boolean {
  if (row.box_udn && l.boxUdn && row.box_udn !== l.boxUdn) return false;
  if (row.show_title !== null && norm(row.show_title) !== norm(l.folderTitle)) return false;
  if (norm(row.box_title) !== norm(l.item.title)) return false;
  if (row.recorded_start && l.item.recordedStart && norm(row.recorded_start) !== norm(l.item.recordedStart)) return false;
  const known = (n: number | null): n is number => n !== null && !listingSaysRecording(n);
  if (row.status === 'done' && known(row.expected_size) && known(l.item.size) && row.expected_size !== l.item.size) return false;
  return true;
}

export interface ReconcileResult {
  /** Rows moved to the id their recording has now. */
  moved: number;
  /** Rows whose id now names another recording, moved aside to `<id>~<n>` (their files stay). */
  retired: number;
  /** Item ids to leave for the next sync (a row involved is held by another pipeline). */
  busy: Set<string>;
}

/**
 * Matches one box's listing to the stored rows before any item is processed, so that a box that
 * renumbered its ids neither skips a new recording that took an old id ("already done") nor
 * downloads a known recording again under its new id. Rows follow their recording to its new id;
 * a row whose id now names a different recording (and whose recording is not listed elsewhere) is
 * moved aside to `<id>~<n>`, keeping its file and history.
 */
export function reconcileIds(
  deps: { recordings: RecordingsStore; guard: FlightGuard; logger: Logger },
  listing: readonly ListedRecording[],
  now: number,
): ReconcileResult {
  const result: ReconcileResult = { moved: 0, retired: 0, busy: new Set() };
  const claimed = new Set<string>();
  const unbound: ListedRecording[] = [];
  for (const l of listing) {
    const row = deps.recordings.get(l.item.id);
    if (row && sameRecording(row, l)) {
      claimed.add(row.box_id);
      // A row that matched without knowing its show folder, box or start time learns them now.
      if ((row.show_title === null || row.box_udn === null || row.recorded_start === null) && !deps.guard.isBusy(row.box_id)) {
        deps.recordings.learnIdentity(row.box_id, { show_title: l.folderTitle, box_udn: l.boxUdn || null, recorded_start: l.item.recordedStart || null }, now);
      }
    } else unbound.push(l);
  }
  if (!unbound.length) return result;

  const moves: Array<{ from: string; to: string }> = [];
  for (const l of unbound) {
    const candidates = deps.recordings
      .withTitle(l.item.title)
      .filter((r) => r.box_id !== l.item.id && !claimed.has(r.box_id) && sameRecording(r, l))
      .sort((a, b) => Number(b.status === 'done') - Number(a.status === 'done') || b.updated_at - a.updated_at);
    const found = candidates[0];
    if (!found) continue;
    claimed.add(found.box_id);
    moves.push({ from: found.box_id, to: l.item.id });
  }
  // Rows sitting on an id that now names another recording, and not moving themselves: aside.
  const moving = new Set(moves.map((m) => m.from));
  const taken = new Set<string>();
  for (const l of unbound) {
    const row = deps.recordings.get(l.item.id);
    if (!row || moving.has(row.box_id)) continue;
    let n = 1;
    while (deps.recordings.get(`${row.box_id}~${n}`) || taken.has(`${row.box_id}~${n}`)) n++;
    taken.add(`${row.box_id}~${n}`);
    moves.push({ from: row.box_id, to: `${row.box_id}~${n}` });
    result.retired++;
  }
  if (!moves.length) return result;

  const busy = moves.filter((m) => deps.guard.isBusy(m.from) || deps.guard.isBusy(m.to));
  if (busy.length) {
    // Leave every renumbered item of this box to the next sync rather than guess around a busy row.
    for (const l of unbound) result.busy.add(l.item.id);
    deps.logger.info({ busy: busy.map((m) => m.from) }, 'renumbered recordings are busy: matching them next sync');
    return { moved: 0, retired: 0, busy: result.busy };
  }
  try {
    deps.recordings.rekey(moves, now);
  } catch (err) {
    for (const l of unbound) result.busy.add(l.item.id);
    deps.logger.warn({ err }, 'cannot follow renumbered recordings: matching them next sync');
    return { moved: 0, retired: 0, busy: result.busy };
  }
  result.moved = moves.length - result.retired;
  if (moves.length) deps.logger.info({ moves }, 'the box renumbered recordings: rows follow their recordings');
  return result;
}
