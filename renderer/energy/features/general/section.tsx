import type { EnergyFeaturePage } from '../page-section.js';
import { HostListEditor } from './HostListEditor.js';

export const generalPage: EnergyFeaturePage = {
  name: 'general',
  sections: [
    {
      key: 'general',
      explainer: <p>Your time zone decides where "today" starts and ends for energy totals and costs; the currency is used for every price on these pages.</p>,
      editors: { 'general.allowedHosts': HostListEditor },
    },
  ],
};
