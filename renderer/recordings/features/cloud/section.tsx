import { CheckButton } from '../../settings/CheckButton.js';
import { SettingsCard, type SettingDef } from '../../settings/SettingsCard.js';
import type { RecordingsFeaturePage } from '../page-section.js';

const CLOUD: SettingDef[] = [
  { key: 'cloud_api_url', label: 'Cloud API URL', kind: 'text' },
  { key: 'cloud_ws_url', label: 'Cloud WebSocket URL', kind: 'text' },
  { key: 'cloud_activation_code', label: 'Activation code', kind: 'secret' },
  { key: 'cloud_pin', label: 'PIN', kind: 'secret' },
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
