import type { RecordingRow } from '../store/recordings-store.js';

/**
 * The integrations the service's own routes call (built by the features; tests may replace any of
 * them). A feature with routes of its own (the media server) registers them itself instead.
 */
export interface IntegrationSeams {
  /** Ad scan of one downloaded recording (detect or cut per the show's mode); runs under the guard. */
  adScan(row: RecordingRow, signal: AbortSignal): Promise<void>;
  cloudTest(): Promise<unknown>;
  /** Deletes one recording from the box through the vendor cloud; the row becomes a tombstone. */
  deleteFromBox(row: RecordingRow, signal: AbortSignal): Promise<unknown>;
}
