import { adLabel, episodeLabel, formatBytes, formatInZone, isTombstone, STATUS_LABEL } from '../format.js';
import { ProgressBar } from '../ProgressBar.js';
import type { Recording } from '../types.js';

export const COLUMNS = ['Recording', 'Size', 'Status', 'Ads', 'Downloaded', ''] as const;

export function HeaderCells() {
  return (
    <>
      {COLUMNS.map((c, i) => (
        <div role="columnheader" key={i} className={`c${i}`}>
          {c || <span className="visually-hidden">Actions</span>}
        </div>
      ))}
    </>
  );
}

/** One recording: show, episode and title, size, status with its error or live progress, ads, time, actions. */
export function RecordingCells({ r, tz, onRescan, onDelete, lockedWhyId }: { r: Recording; tz: string | undefined; onRescan?: (r: Recording) => void; onDelete?: (r: Recording) => void; /** While locked: the id of the reason the buttons are disabled. */ lockedWhyId?: string }) {
  const tomb = isTombstone(r);
  const ep = episodeLabel(r);
  const name = `${r.show_title ?? ''} ${ep} ${r.box_title}`.trim();
  return (
    <div className={`rec-row status-${r.status}${tomb ? ' tombstone' : ''}`} data-box-id={r.box_id} data-status={r.status}>
      <div role="cell" className="c0 rec-title">
        <span className="rec-show">
          {r.show_title ?? 'Unknown show'}
          {ep && <span className="rec-ep"> · {ep}</span>}
          {tomb && <span className="badge tomb" title="Deleted from the box; the local file stays">deleted from box</span>}
        </span>
        <span className="rec-name" title={r.file_path ?? r.box_title}>
          {r.box_title}
        </span>
      </div>
      <div role="cell" className="c1 num">
        {formatBytes(r.size ?? r.expected_size)}
      </div>
      <div role="cell" className="c2 rec-status">
        {r.progress ? (
          <ProgressBar progress={r.progress} name={name} />
        ) : (
          <>
            <span className={`pill ${r.status}`} data-testid="status">
              {STATUS_LABEL[r.status] ?? r.status}
            </span>
            {r.error && (
              <span className="rec-error small" title={r.error} data-testid="error">
                {r.error}
              </span>
            )}
          </>
        )}
      </div>
      <div role="cell" className="c3 small">
        <span className="cell-label">Ads: </span>
        <span className={r.ad_error ? 'error-text' : undefined}>{adLabel(r)}</span>
        {r.ad_error && (r.ad_status === 'detect_failed' || r.ad_status === 'mark_failed' || r.ad_status === 'cut_failed') && (
          <span className="rec-error ad-error" title={r.ad_error} data-testid="ad-error">
            {r.ad_error}
          </span>
        )}
      </div>
      <div role="cell" className="c4 small">
        {formatInZone(r.downloaded_at, tz)}
      </div>
      <div role="cell" className="c5">
        {onRescan && r.status === 'done' && r.file_path && !r.progress && (
          <button type="button" className="small-button" onClick={() => onRescan(r)} aria-label={`Re-scan ${name} for ads`} disabled={lockedWhyId !== undefined} aria-describedby={lockedWhyId}>
            Re-scan
          </button>
        )}
        {onDelete && !tomb && r.status === 'done' && !r.progress && (
          <button type="button" className="small-button" onClick={() => onDelete(r)} aria-label={`Delete from box: ${name}`} disabled={lockedWhyId !== undefined} aria-describedby={lockedWhyId}>
            Delete from box
          </button>
        )}
      </div>
    </div>
  );
}
