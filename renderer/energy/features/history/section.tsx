import type { EnergyFeaturePage } from '../page-section.js';

export const historyPage: EnergyFeaturePage = {
  name: 'history',
  sections: [
    {
      key: 'history',
      explainer: <p>Every reading is kept for a week so Trends can draw it; daily totals are kept much longer. Older readings are removed by themselves.</p>,
    },
  ],
};
