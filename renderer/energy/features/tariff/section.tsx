import type { EnergyFeaturePage } from '../page-section.js';
import { WindowsEditor } from './WindowsEditor.js';

export const tariffPage: EnergyFeaturePage = {
  name: 'tariff',
  sections: [
    {
      key: 'tariff',
      explainer: (
        <>
          <p>
            Enter what you pay per kWh for power you buy and what you are paid for power you sell. If your price changes during the day, add a time window for each
            price; outside every window the standard prices apply.
          </p>
          <p>The bridge adds up what you bought and sold each day and shows today's cost on the dashboard and the cost of any period in Trends.</p>
        </>
      ),
      editors: { 'tariff.windows': WindowsEditor },
    },
  ],
};
