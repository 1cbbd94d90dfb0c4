/**
 * Whether the recording sync is locked for this browser: the owner's passcode (set on the energy
 * bridge, or in this setup) gates every change here too. The page learns it from `GET /api/session`
 * and from any write that answers 401 `locked`; one unlock (here or on the energy bridge's pages)
 * serves both, through the session cookie the browser sends to both ports.
 */
export interface LockState {
  passcodeSet: boolean;
  unlocked: boolean;
  /** Whether this service offers the passcode (false when it runs without the energy bridge). */
  passcodeAvailable: boolean;
}

let current: LockState | null = null;
const listeners = new Set<(s: LockState | null) => void>();

export const lockState = {
  get: () => current,
  set(next: LockState | null): void {
    current = next;
    for (const l of listeners) l(next);
  },
  /** A write answered 401 `locked`: the page shows the unlock form. */
  locked(): void {
    lockState.set({ passcodeSet: true, unlocked: false, passcodeAvailable: current?.passcodeAvailable ?? true });
  },
  subscribe(fn: (s: LockState | null) => void): () => void {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};
