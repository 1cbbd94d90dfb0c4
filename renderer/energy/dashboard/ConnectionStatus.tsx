import { Banner } from '../../kit/Banner.js';
import { formatAgo, formatDateTime, formatTime } from '../../kit/format.js';
import type { LiveState, Snapshot } from '../types.js';

/** Gateway connection state and the time of the last poll; an offline gateway is unmistakable. */
export function ConnectionStatus({ snapshot, state, streamOpen, now }: { snapshot: Snapshot; state: LiveState | null; streamOpen: boolean; now: number }) {
  const gw = state?.gateway;
  const where = gw?.host ? `${gw.host}:${gw.port}` : 'the gateway';
  return (
    <>
      {!streamOpen && (
        <Banner kind="error" testId="stream-banner">
          Lost the connection to the energy bridge. Reconnecting… The values below may be out of date.
        </Banner>
      )}
      {!snapshot.connected && snapshot.lastUpdated && (
        <Banner kind="warn" testId="offline-banner">
          <strong>Gateway offline since {formatDateTime(snapshot.lastUpdated)}.</strong> Showing the last known values, not live data. The bridge keeps
          retrying {where}
          {state?.lastError ? ` (${state.lastError})` : ''}.
        </Banner>
      )}
      {!snapshot.connected && !snapshot.lastUpdated && (
        <Banner kind="info" testId="waiting-banner">
          Waiting for the first reading from {where}
          {state?.lastError ? `: ${state.lastError}` : '…'}
        </Banner>
      )}
      <p className="small" data-testid="connection-status">
        <span
          aria-hidden="true"
          style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, marginRight: 6, background: snapshot.connected ? 'var(--ok)' : 'var(--grid)' }}
        />
        <strong>{snapshot.connected ? 'Gateway connected' : 'Gateway offline'}</strong>
        {gw?.host ? ` · ${where}` : ''}
        {gw?.firmware ? ` · firmware ${gw.firmware}` : ''} · last poll{' '}
        <time data-testid="last-poll" dateTime={snapshot.lastUpdated ?? undefined}>
          {snapshot.lastUpdated ? `${formatTime(snapshot.lastUpdated)} (${formatAgo(snapshot.lastUpdated, now)})` : 'never'}
        </time>{' '}
        · every {Math.round(snapshot.pollIntervalMs / 100) / 10} s
      </p>
    </>
  );
}
