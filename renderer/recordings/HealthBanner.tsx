import { useEffect, useState } from 'react';
import { Banner } from '../kit/Banner.js';
import { rec } from './api.js';

type Health = { status: 'ok' } | { status: 'degraded'; reasons: string[] };

/** How often the pages re-read `/healthz` (the deployment's own poll is every 30 s). */
const HEALTH_POLL_MS = 30_000;

/**
 * Above every recordings page while `/healthz` says `degraded`: what needs the user (a full disk
 * for the data folder or the media), in the server's words; gone by itself once it recovers.
 */
export function HealthBanner() {
  const [health, setHealth] = useState<Health | null>(null);
  useEffect(() => {
    let stopped = false;
    const read = () =>
      rec
        .get<Health>('/healthz')
        .then((h) => !stopped && setHealth(h))
        .catch(() => undefined);
    void read();
    const t = setInterval(() => void read(), HEALTH_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(t);
    };
  }, []);
  if (health?.status !== 'degraded') return null;
  return (
    <Banner kind="warn" testId="health-banner">
      <strong>Needs attention:</strong>
      <ul>
        {health.reasons.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
    </Banner>
  );
}
