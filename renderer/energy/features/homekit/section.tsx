import type { EnergyFeaturePage } from '../page-section.js';
import { HomeKitPairing } from './HomeKitPairing.js';
import { NetworkConnectionsEditor } from './NetworkConnectionsEditor.js';

export const homekitPage: EnergyFeaturePage = {
  name: 'homekit',
  sections: [
    {
      key: 'homekit',
      explainer: <p>Shows your solar, battery and home use in Apple's Home app. Turn it on, then scan the pairing code with an iPhone on the same network.</p>,
      editors: { 'homekit.bind': NetworkConnectionsEditor },
      tools: (_draft, { locked }) => <HomeKitPairing locked={locked} />,
    },
  ],
};
