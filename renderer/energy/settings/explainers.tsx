import type { ReactNode } from 'react';

/**
 * The short "how it works" above each energy settings section, in plain words for a householder.
 * (The fields' own hints come from the bridge's settings schema.)
 */
export const ENERGY_EXPLAINERS: Record<string, ReactNode> = {
  general: <p>Your time zone decides where "today" starts and ends for energy totals and costs; the currency is used for every price on these pages.</p>,
  gateway: (
    <p>
      The bridge reads your battery system's gateway over your home network, using its address. If you do not know the address, the setup page can search your
      network for it. "Test connection" checks an address before you save it.
    </p>
  ),
  polling: <p>How often the bridge asks the gateway for new readings. Every few seconds keeps the dashboard lively; the gateway needs at least a second between questions.</p>,
  history: <p>Every reading is kept for a week so Trends can draw it; daily totals are kept much longer. Older readings are removed by themselves.</p>,
  battery: (
    <p>
      The battery's size and the reserve you keep back are used to estimate when it will be full or empty. Leave the size empty to use what the gateway reports.
    </p>
  ),
  names: <p>Give your inverters, solar strings and smart loads names you recognise; they appear on the dashboard instead of numbers.</p>,
  tariff: (
    <>
      <p>
        Enter what you pay per kWh for power you buy and what you are paid for power you sell. If your price changes during the day, add a time window for each
        price; outside every window the standard prices apply.
      </p>
      <p>The bridge adds up what you bought and sold each day and shows today's cost on the dashboard and the cost of any period in Trends.</p>
    </>
  ),
  alerts: (
    <>
      <p>
        An alert watches one reading (say, battery below 20%) and tells you when it happens: on the dashboard, and by calling a web address you give it (a
        notification service or your home automation).
      </p>
      <p>"Send a test alert" calls that address once with a sample alert, so you can check it arrives before you rely on it.</p>
    </>
  ),
  weather: <p>With your town or coordinates the dashboard shows the outdoor temperature and today's forecast beside your solar.</p>,
  homekit: <p>Shows your solar, battery and home use in Apple's Home app. Turn it on, then scan the pairing code with an iPhone on the same network.</p>,
  smartHome: <p>Lets a voice assistant service ask the bridge for readings. Only turn this on if you have set such a service up; it needs a secret token.</p>,
};
