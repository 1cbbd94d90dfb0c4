import { TestButton } from '../../settings/Tools.js';
import { LOCKED_WHY, type EnergyFeaturePage } from '../page-section.js';
import { SitePicker } from './SitePicker.js';
import { testPrices } from './prices-test.js';

export const pricesPage: EnergyFeaturePage = {
  name: 'prices',
  sections: [
    {
      key: 'prices',
      explainer: (
        <p>
          With Amber or Octopus Agile the bridge prices each moment at the price your retailer bills for it, shows the live price and the next hours, and can alert you to spikes and to
          exporting when it costs money. With fixed rates it uses the prices under Tariff. Prices are kept on this PC, so a restart or an outage loses none.
        </p>
      ),
      editors: { 'prices.amber.siteId': SitePicker },
      tools: (p, { locked }) => (
        <TestButton label="Test prices" disabled={locked ? LOCKED_WHY : p.source === 'amber' || p.source === 'octopus' ? null : 'Choose Amber or Octopus first.'} run={() => testPrices(p)} />
      ),
    },
  ],
};
