/**
 * The demo's first-start settings for the insight features: a time-of-use tariff with credits,
 * weather from the local fake and two alerts timed to the simulated plant (its day runs 30x from
 * 09:30, overcast: demo/control.ts): the price plan charges the battery from the grid at its 5 kW
 * limit from 11:00 simulated (about 3 real minutes) until it is full, and the smart loads push the
 * house over 3.5 kW from 11:00 to 14:00 simulated.
 */
export function demoInsightSettings(opts: { gateway: { host: string; port: number }; weather: { forecastUrl: string; geocodingUrl: string }; pollIntervalMs: number }): Record<string, unknown> {
  return {
    gateway: { host: opts.gateway.host, port: opts.gateway.port },
    polling: { intervalMs: Math.max(1000, opts.pollIntervalMs) },
    tariff: {
      importRate: 0.3,
      feedInRate: 0.08,
      dailySupplyCharge: 1.1,
      windows: [
        { name: 'Peak', start: '15:00', end: '21:00', importRate: 0.45, feedInRate: null },
        { name: 'Off-peak', start: '22:00', end: '07:00', importRate: 0.15, feedInRate: null },
      ],
      superExport: { enabled: true, rate: 0.3, start: '18:00', end: '20:00', capKwh: 10 },
      zeroDraw: { enabled: true, credit: 1, start: '16:00', end: '21:00', toleranceKwh: 0.05 },
    },
    alerts: [
      { id: 'charging-hard', name: 'Battery charging hard', trigger: 'batteryPower', condition: 'atOrAbove', threshold: 4.5, unit: 'kW', settleSeconds: 10, clearSeconds: 10 },
      { id: 'heavy-load', name: 'Heavy load', trigger: 'homeLoad', condition: 'atOrAbove', threshold: 3.5, unit: 'kW', settleSeconds: 10, clearSeconds: 20 },
    ],
    solar: { ratedKwp: 6.6 },
    weather: { enabled: true, location: 'Sydney', forecastUrl: opts.weather.forecastUrl, geocodingUrl: opts.weather.geocodingUrl },
  };
}
