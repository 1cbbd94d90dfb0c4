import type { EnergyFeaturePage } from '../page-section.js';

export const batteryPage: EnergyFeaturePage = {
  name: 'battery',
  sections: [
    {
      key: 'battery',
      explainer: (
        <p>
          The battery's size and the reserve you keep back are used to estimate when it will be full or empty. Leave the size empty to use what the gateway reports.
        </p>
      ),
    },
  ],
};
