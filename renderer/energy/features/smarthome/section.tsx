import type { EnergyFeaturePage } from '../page-section.js';

export const smartHomePage: EnergyFeaturePage = {
  name: 'smartHome',
  sections: [
    {
      key: 'smartHome',
      explainer: <p>Lets a voice assistant service ask the bridge for readings. Only turn this on if you have set such a service up; it needs a secret token.</p>,
    },
  ],
};
