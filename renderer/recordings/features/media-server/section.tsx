import { CheckButton } from '../../settings/CheckButton.js';
import { SettingsCard, type SettingDef } from '../../settings/SettingsCard.js';
import type { RecordingsFeaturePage } from '../page-section.js';

const MEDIA_SERVER: SettingDef[] = [
  { key: 'media_server_url', placeholder: 'http://192.168.1.10:32400' },
  { key: 'media_server_section_id' },
  { key: 'media_server_token' },
  { key: 'media_server_prefs_path' },
];

/** The media server told to look at the library again, with discovery and token detection. */
export const mediaServerPage: RecordingsFeaturePage = {
  name: 'mediaServer',
  sections: [
    {
      id: 'media-server',
      label: 'Media server',
      explainer: <p>After new recordings arrive, the service asks your media server (Plex) to look at the library again, so they show up there straight away.</p>,
      keys: MEDIA_SERVER.map((d) => d.key),
      needs: 'discover_media_server',
      render: ({ view, reload }) => (
        <SettingsCard
          title="Media server"
          id="media-server"
          defs={MEDIA_SERVER}
          view={view}
          actions={
            <>
              <CheckButton label="Discover" path="/api/discover-media-server" onDone={reload} />
              {view.capabilities?.detect_media_server_token && <CheckButton label="Detect token" path="/api/media-server/detect-token" onDone={reload} />}
            </>
          }
        />
      ),
    },
  ],
};
