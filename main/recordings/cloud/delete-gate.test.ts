import { describe, expect, it } from 'vitest';
import type { RecordingRow } from '../store/recordings-store.js';
import type { Show } from '../store/shows-store.js';
import { keepReason } from './box-delete.js';

const row = (over: Partial<RecordingRow> = {}): RecordingRow =>
  ({ box_id: '1', status: 'done', file_path: '/m/a.ts', purged_at: null, ad_status: 'unscanned', ...over }) as RecordingRow;
const show = (over: Partial<Show> = {}): Show => ({ delete_after_download: true, ad_mode: 'off', ...over }) as Show;
const noServer = { adRemoval: true, mediaServer: false };
const server = { adRemoval: true, mediaServer: true };

describe('automatic box deletion gates (spec: delete-from-box gating; open values: media-server guard)', () => {
  it('cut-mode shows lose the box copy only when the cut verified or no breaks were found', () => {
    for (const ad of ['cut', 'no_breaks'] as const) expect(keepReason(row({ ad_status: ad }), show({ ad_mode: 'cut' }), noServer, null)).toBeNull();
    for (const ad of ['cut_failed', 'detected', 'detect_failed', 'unscanned', 'scanning'] as const) {
      expect(keepReason(row({ ad_status: ad }), show({ ad_mode: 'cut' }), noServer, null)).toContain(ad);
    }
  });

  it('a detect-only outcome keeps the box copy; with ad removal off the show setting decides', () => {
    expect(keepReason(row({ ad_status: 'detected' }), show({ ad_mode: 'detect' }), noServer, null)).not.toBeNull();
    expect(keepReason(row(), show({ ad_mode: 'cut' }), { ...noServer, adRemoval: false }, null)).toBeNull();
    expect(keepReason(row(), show({ ad_mode: 'off' }), noServer, null)).toBeNull();
  });

  it('with a media server configured, deletion waits for a successful refresh; without one the show decides', () => {
    expect(keepReason(row(), show(), server, 'ok')).toBeNull();
    expect(keepReason(row(), show(), server, 'failed')).toContain('refresh');
    expect(keepReason(row(), show(), server, null)).toContain('refresh');
    expect(keepReason(row(), show(), noServer, 'not_configured')).toBeNull();
    expect(keepReason(row(), show({ delete_after_download: false }), noServer, null)).not.toBeNull();
  });

  it('only downloaded, not yet deleted rows', () => {
    expect(keepReason(row({ status: 'partial' }), show(), noServer, null)).not.toBeNull();
    expect(keepReason(row({ purged_at: 1 }), show(), noServer, null)).not.toBeNull();
  });
});
