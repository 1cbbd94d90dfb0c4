import type { EnergyFeaturePage } from '../page-section.js';
import { AlertsEditor } from './AlertsEditor.js';

export const alertsPage: EnergyFeaturePage = {
  name: 'alerts',
  sections: [
    {
      key: 'alerts',
      explainer: (
        <>
          <p>
            An alert watches one reading (say, battery below 20%) and tells you when it happens: on the dashboard, and by calling a web address you give it (a
            notification service or your home automation).
          </p>
          <p>"Send a test alert" calls that address once with a sample alert, so you can check it arrives before you rely on it.</p>
        </>
      ),
      editors: { alerts: AlertsEditor },
    },
  ],
};
