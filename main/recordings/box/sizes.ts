/** The size the box reports (listing, HEAD or GET Content-Length) for an item being recorded now. */
export const RECORDING_SIZE_MARKER = 4398046510080;

/** Step 2 of the per-item decision, on the listing alone: size unknown (<= 0) or the marker. */
export function listingSaysRecording(size: number): boolean {
  return size <= 0 || size === RECORDING_SIZE_MARKER;
}
