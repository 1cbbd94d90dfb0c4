import type { RecordingRow } from '../store/recordings-store.js';

/** The integrations the routes call (built by the service; tests may replace any of them). */
export interface IntegrationSeams {
  /** Ad scan of one downloaded recording (detect or cut per the show's mode); runs under the guard. */
  adScan(row: RecordingRow, signal: AbortSignal): Promise<void>;
  /** GDM search on the LAN (no body) or the sections of a chosen server (`{ url, token? }`); validates its body. */
  discoverMediaServer(body: unknown, caller?: { owner: boolean }): Promise<unknown>;
  /** Whether the saved media server answers now (`GET /api/media-server`). */
  mediaServerStatus(): Promise<unknown>;
  /** Reads the media server's token from its preferences file and stores it (never echoed in clear). */
  detectMediaServerToken(body: unknown): Promise<unknown>;
  cloudTest(): Promise<unknown>;
  /** Deletes one recording from the box through the vendor cloud; the row becomes a tombstone. */
  deleteFromBox(row: RecordingRow, signal: AbortSignal): Promise<unknown>;
}
