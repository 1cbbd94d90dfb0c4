import { useCallback, useEffect, useRef, useState } from 'react';
import type { ProgressView } from '../../main/recordings/progress-feed.js';
import type { Recording } from './types.js';
import { useLivePoll, type LivePoll } from './use-live.js';

type Progress = ProgressView['progress'];

/**
 * The recording sync's progress events (`GET /api/progress/events`): the live entries by box id
 * while the stream is open (null while it is not: the page then polls as before), and a call of
 * `onRowsChanged` whenever the page should read its lists: on the first event after (re)connecting,
 * when a stored row changed or a sync started or ended, and once when the stream goes down (or the
 * browser has none), so the page polls meanwhile.
 */
export function useProgressStream(onRowsChanged: () => void): Progress | null {
  const [progress, setProgress] = useState<Progress | null>(null);
  const changed = useRef(onRowsChanged);
  changed.current = onRowsChanged;
  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      changed.current();
      return;
    }
    const es = new EventSource('/api/progress/events');
    let seen: { version: number; sync: number | null } | null = null;
    let down = false;
    es.onmessage = (e: MessageEvent<string>) => {
      const v = JSON.parse(e.data) as ProgressView;
      down = false;
      setProgress(v.progress);
      // The first event after (re)connecting reads the lists once (they may have changed while the
      // stream was not up); then each change.
      if (!seen || seen.version !== v.version || seen.sync !== v.sync_running) changed.current();
      seen = { version: v.version, sync: v.sync_running };
    };
    // EventSource reconnects by itself; the page polls meanwhile (read now: the bars stop here).
    es.onerror = () => {
      seen = null;
      setProgress(null);
      if (!down) changed.current();
      down = true;
    };
    return () => es.close();
  }, []);
  return progress;
}

/**
 * A recordings page's lists with progress from the event stream: `load` is read once the stream is
 * up and again whenever a stored row changes or a sync starts or ends (and at the idle cadence,
 * 60 s), never every 2 s while something downloads. While the stream is down the page polls at the
 * spec's cadence (`useLivePoll`: 2 s while `isLive`). `progressOf` gives a row's live progress,
 * from the stream while it is open, else the row's own `progress`.
 */
export function useStreamedPoll<T>(load: () => Promise<T>, isLive: (data: T) => boolean): LivePoll<T> & { progressOf: (r: Recording) => Recording['progress'] } {
  const refresh = useRef(() => undefined as void);
  const streamed = useProgressStream(() => refresh.current());
  const live = useLivePoll(load, (d) => streamed === null && isLive(d), { firstOnRefresh: true });
  refresh.current = () => void live.refresh();
  const progressOf = useCallback((r: Recording) => (streamed ? (streamed[r.box_id] ?? null) : r.progress), [streamed]);
  return { ...live, progressOf };
}
