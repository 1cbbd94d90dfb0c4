import type { EnergyFeaturePage } from '../page-section.js';

export const historyPage: EnergyFeaturePage = {
  name: 'history',
  sections: [
    {
      key: 'history',
      explainer: <p>Every reading is kept for a week so Trends can draw it in full; after that Trends draws minute averages (for 400 days by default), then hourly ones, kept for good. Daily totals are kept for good too. Older readings are removed by themselves.</p>,
    },
  ],
};
