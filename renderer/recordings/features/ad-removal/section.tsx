import { SettingsCard, type SettingDef } from '../../settings/SettingsCard.js';
import type { RecordingsFeaturePage } from '../page-section.js';

const ADS: SettingDef[] = [
  { key: 'ad_removal_enabled' },
  { key: 'ad_original_retention_days' },
];

/** Ad removal after a download, and where its detector settings come from. */
export const adRemovalPage: RecordingsFeaturePage = {
  name: 'adRemoval',
  sections: [
    {
      id: 'ads',
      label: 'Ad removal',
      explainer: <p>After a download, the service can find the ad breaks and cut them out. The original is kept for the days you choose, in case a cut went wrong.</p>,
      keys: ADS.map((d) => d.key),
      needs: 'ad_scan',
      render: ({ view }) => (
        <SettingsCard
          title="Ad removal"
          id="ads"
          defs={ADS}
          view={view}
          extra={() => (
            <p className="small muted">
              Detector settings: {view.detector_config.path ? <code>{view.detector_config.path}</code> : null} ({view.detector_config.source === 'user' ? 'your file' : 'bundled default'})
            </p>
          )}
        />
      ),
    },
  ],
};
