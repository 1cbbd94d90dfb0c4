import { CheckButton } from '../../settings/CheckButton.js';
import { SettingsCard, type SettingDef } from '../../settings/SettingsCard.js';
import type { RecordingsFeaturePage } from '../page-section.js';
import { LibraryPicker } from './LibraryPicker.js';
import { ServerKindPicker } from './ServerKindPicker.js';

const PLACEHOLDER: Record<string, string> = { plex: 'http://192.168.1.10:32400', jellyfin: 'http://192.168.1.10:8096', emby: 'http://192.168.1.10:8096' };

const fieldsFor = (kind: string): SettingDef[] => [
  { key: 'media_server_url', placeholder: PLACEHOLDER[kind] ?? PLACEHOLDER.plex },
  { key: 'media_server_section_id' },
  { key: 'media_server_token' },
  // Only Plex keeps its token in a file on this PC.
  ...(kind === 'plex' ? [{ key: 'media_server_prefs_path' }] : []),
];

/** The media server (Plex, Jellyfin or Emby) told to look at the library again, with discovery, a key test and the library choice. */
export const mediaServerPage: RecordingsFeaturePage = {
  name: 'mediaServer',
  sections: [
    {
      id: 'media-server',
      label: 'Media server',
      explainer: <p>After new recordings arrive, the service asks your media server (Plex, Jellyfin or Emby) to look at the library again, so they show up there straight away.</p>,
      keys: ['media_server_kind', 'media_server_url', 'media_server_section_id', 'media_server_token', 'media_server_prefs_path'],
      needs: 'discover_media_server',
      render: ({ view, reload }) => {
        const kind = String(view.settings.media_server_kind ?? 'plex');
        return (
          <>
            <ServerKindPicker view={view} />
            <SettingsCard
              // A new kind is a new form (its fields differ).
              key={kind}
              title="Media server"
              id="media-server"
              defs={fieldsFor(kind)}
              view={view}
              extra={() => <LibraryPicker view={view} />}
              extraAfter="media_server_section_id"
              actions={
                <>
                  <CheckButton label="Discover" path="/api/discover-media-server" onDone={reload} />
                  <CheckButton label="Test" path="/api/media-server/test" />
                  {kind === 'plex' && view.capabilities?.detect_media_server_token && <CheckButton label="Detect token" path="/api/media-server/detect-token" onDone={reload} />}
                </>
              }
            />
          </>
        );
      },
    },
  ],
};
