import { useEffect, useState } from 'react';

/**
 * Whether what the page shows is the last state this device saw rather than a live answer: the
 * service worker (public/sw.js) answers API reads from its copy when the service cannot be reached
 * and marks them `x-offline-copy: <when saved>`. Every JSON read passes its response here.
 */
let savedAt: number | null = null;
const listeners = new Set<() => void>();

export function noteResponse(res: Response): void {
  const copy = res.headers.get('x-offline-copy');
  const next = copy === null ? null : Date.parse(copy) || 0;
  // A live answer ends the offline state; an older copy keeps the earliest time shown.
  const value = next === null ? null : savedAt === null ? next : Math.min(savedAt, next);
  if (value === savedAt) return;
  savedAt = value;
  for (const l of listeners) l();
}

/** When the copy on screen was saved (epoch ms, 0 if unknown), or null while answers are live. */
export function useOfflineCopy(): number | null {
  const [v, setV] = useState(savedAt);
  useEffect(() => {
    const update = () => setV(savedAt);
    listeners.add(update);
    update();
    return () => {
      listeners.delete(update);
    };
  }, []);
  return v;
}

/** Registers the service worker that keeps the last state for offline opening (not in dev, not where unsupported). */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  });
}
