import { useEffect, useRef, useState } from 'react';
import type { ProgressView } from '../../main/recordings/progress-feed.js';

/**
 * The recording sync's progress events (`GET /api/progress/events`): the live entries by box id
 * while the stream is open (null while it is not: the page then polls as before), and a call of
 * `onRowsChanged` on the first event and whenever a stored row changed or a sync started or ended,
 * so the page reads its lists again then, and not every 2 s while something downloads.
 */
export function useProgressStream(onRowsChanged: () => void): ProgressView['progress'] | null {
  const [progress, setProgress] = useState<ProgressView['progress'] | null>(null);
  const changed = useRef(onRowsChanged);
  changed.current = onRowsChanged;
  useEffect(() => {
    const es = new EventSource('/api/progress/events');
    let seen: { version: number; sync: number | null } | null = null;
    es.onmessage = (e: MessageEvent<string>) => {
      const v = JSON.parse(e.data) as ProgressView;
      setProgress(v.progress);
      // The first event after (re)connecting reads the lists once (they may have changed before the
      // stream was up, and the page's poll then takes the stream's slower cadence); then each change.
      if (!seen || seen.version !== v.version || seen.sync !== v.sync_running) changed.current();
      seen = { version: v.version, sync: v.sync_running };
    };
    // EventSource reconnects by itself; the page polls meanwhile.
    es.onerror = () => {
      seen = null;
      setProgress(null);
    };
    return () => es.close();
  }, []);
  return progress;
}
