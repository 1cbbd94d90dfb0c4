import { useSyncExternalStore } from 'react';
import { WhyDisabled } from '../kit/SectionedPage.js';
import { lockState } from './lock.js';

/**
 * Whether this browser is locked out of changes (a passcode is set and there is no session), from
 * the lock state the lock banner above every page fetches; null until that answer came. Every
 * control whose request needs a session is disabled while this is true, with `lockedWhy` beside it.
 */
export function useLocked(): boolean | null {
  // An external store read the React way: a change between this render and the subscription is not missed.
  const state = useSyncExternalStore(lockState.subscribe, lockState.get);
  if (!state) return null;
  return state.passcodeSet && !state.unlocked;
}

/** The reason a control is disabled while locked: the unlock form is the banner above. */
export const lockedWhy = (what: string): string => `Unlock with the passcode above to ${what}.`;

/** The reason beside a control disabled while locked (nothing when unlocked), and the id for its aria-describedby. */
export function LockedWhy({ id, locked, what }: { id: string; locked: boolean | null; what: string }) {
  return <WhyDisabled id={id} why={locked ? lockedWhy(what) : null} />;
}
