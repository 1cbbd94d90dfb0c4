import { HeaderStatus } from '../app/HeaderStatus.js';
import { useSyncState } from './sync-status.js';
import { useServerSettings } from './use-server.js';

/** The recordings header's end: idle or syncing (with the run number), and the clock in the service's time zone. */
export function RecordingsHeader() {
  const { state, error } = useSyncState();
  const { view } = useServerSettings();
  const running = state?.running ?? null;
  const status = error && !state
    ? { text: 'Not reachable', busy: false, title: error }
    : state
      ? running
        ? { text: `Syncing · #${running.id}`, busy: true, title: `Sync #${running.id} is running` }
        : { text: 'Idle', busy: false, title: state.schedule?.next_run ? 'No sync running; the next one is scheduled' : 'No sync running' }
      : null;
  return <HeaderStatus status={status} timeZone={view?.tz} />;
}
