import type { ReactNode } from 'react';

/** The short "how it works" above each recordings settings section, in plain words. */
export const RECORDINGS_EXPLAINERS: Record<'box' | 'library' | 'schedule' | 'ads' | 'mediaServer' | 'cloud' | 'mqtt' | 'metrics', ReactNode> = {
  box: <p>The service finds your recording box on your home network and copies the recordings of the shows you follow from it. Pick the box here.</p>,
  library: <p>Copied recordings go into this folder on the computer running the service, one folder per show and season, the way media servers like them.</p>,
  schedule: <p>The service looks for new recordings on this schedule; "Sync now" on the recordings page runs one at any time. Fewer downloads at once are gentler on the box.</p>,
  ads: <p>After a download, the service can find the ad breaks and cut them out. The original is kept for the days you choose, in case a cut went wrong.</p>,
  mediaServer: <p>After new recordings arrive, the service asks your media server (Plex) to look at the library again, so they show up there straight away.</p>,
  cloud: <p>With your box's cloud account, the service can delete a recording from the box once it is safely in your library, to free space on the box.</p>,
  mqtt: (
    <p>
      With an MQTT broker, Home Assistant finds the recording sync by itself: the last sync's result, downloads in progress, the next scheduled sync, and a Sync now button
      (unavailable while a passcode is set). Changing a prefix or turning this off removes the old entries from Home Assistant.
    </p>
  ),
  metrics: <p>Prometheus or Grafana can collect the sync counters from this service's /metrics address. Anyone on your network can read them, like these pages.</p>,
};
