import { useOfflineCopy } from './offline.js';

/** A bar above every page while it shows the last saved state because the service cannot be reached. */
export function OfflineBanner({ service }: { service: string }) {
  const savedAt = useOfflineCopy();
  if (savedAt === null) return null;
  const when = savedAt ? new Date(savedAt).toLocaleString(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' }) : 'earlier';
  return (
    <div className="banner warn offline-banner" role="status" data-testid="offline-copy-banner">
      <strong>Offline: this is the last state this device saw ({when}), not live.</strong> The {service} cannot be reached from here; the page updates by
      itself when it can.
    </div>
  );
}
