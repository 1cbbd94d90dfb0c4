import { RECORDING_SIZE_MARKER } from '../sizes.js';

export { RECORDING_SIZE_MARKER };

/** How a simulated item behaves; every field can be changed while the simulator runs. */
export interface SimItem {
  id: string;
  title: string;
  /** Bytes the media URL really serves. */
  length: number;
  /** Real media to serve (a generated clip) instead of the seeded pattern; `length` must be its size. */
  content?: Buffer;
  /** Size in the listing; defaults to `length`. Set it a few dozen bytes above `length` to mimic TS alignment. */
  listedSize?: number;
  /**
   * Currently recording: `size-unknown` lists size -1, `marker` lists the marker size,
   * `head-marker` answers HEAD and GET with the marker Content-Length, `get-marker` only GET.
   */
  recording?: 'size-unknown' | 'marker' | 'head-marker' | 'get-marker';
  /** The next `dropTimes` (default 1) GETs close the connection after this many body bytes. */
  dropAfterBytes?: number;
  dropTimes?: number;
  /** Throttle the body to about this rate. */
  bytesPerSecond?: number;
  /** Answer every media request with this status. */
  failStatus?: number;
  /** Answer a Range request with a full 200 (a box that cannot resume). */
  ignoreRange?: boolean;
  /**
   * Still recording with no marker at all: each listing of the item and each media GET first append
   * this many bytes (the listing grows between syncs, the body outgrows the listing).
   */
  growBytes?: number;
  /** Key of the item's bytes (default: its first id), so a renumbered item keeps its content. */
  contentKey?: string;
  duration?: string;
  recordedStart?: string;
  description?: string;
}

export interface SimShow {
  title: string;
  items: SimItem[];
}

/** Listing size of an item as the box reports it. */
export function listedSize(item: SimItem): number {
  if (item.recording === 'size-unknown') return -1;
  if (item.recording === 'marker') return RECORDING_SIZE_MARKER;
  return item.listedSize ?? item.length;
}
