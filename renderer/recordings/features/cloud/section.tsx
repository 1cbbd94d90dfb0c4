import { CheckButton } from '../../settings/CheckButton.js';
import { SettingsCard, type SettingDef } from '../../settings/SettingsCard.js';
import type { RecordingsFeaturePage } from '../page-section.js';

const CLOUD: SettingDef[] = [
  { key: 'cloud_api_url' },
  { key: 'cloud_ws_url' },
  { key: 'cloud_activation_code' },
  { key: 'cloud_pin' },
];

/** The box's cloud account, used to delete a recording from the box once it is in the library. */
export const cloudPage: RecordingsFeaturePage = {
  name: 'cloud',
  sections: [
    {
      id: 'cloud',
      label: 'Box cloud account',
      explainer: <p>With your box's cloud account, the service can delete a recording from the box once it is safely in your library, to free space on the box.</p>,
      keys: CLOUD.map((d) => d.key),
      needs: 'cloud_test',
      render: ({ view }) => <SettingsCard title="Box cloud account" id="cloud" defs={CLOUD} view={view} actions={<CheckButton label="Test" path="/api/cloud-test" />} />,
    },
  ],
};
