/**
 * One pipeline per recording: the sync loop, a manual ad scan and later pipelines (cut, cloud
 * delete) all acquire the same guard keyed by box id. Different recordings run concurrently.
 */
export interface FlightGuard {
  /** Returns a release function, or null when that recording is already being processed. */
  tryAcquire(boxId: string, owner: string): (() => void) | null;
  isBusy(boxId: string): boolean;
  owner(boxId: string): string | undefined;
}

export function createFlightGuard(): FlightGuard {
  const held = new Map<string, { owner: string; token: symbol }>();
  return {
    tryAcquire(boxId, owner) {
      if (held.has(boxId)) return null;
      const token = Symbol(owner);
      held.set(boxId, { owner, token });
      return () => {
        if (held.get(boxId)?.token === token) held.delete(boxId);
      };
    },
    isBusy: (boxId) => held.has(boxId),
    owner: (boxId) => held.get(boxId)?.owner,
  };
}
