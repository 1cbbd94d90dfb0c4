/**
 * The demo's price-following day (issue 44, docs/battery-control.md "In the demo"): the demo is the
 * owner's own simulated plant, so battery control is on and writes for real (no dry run) to the
 * gateway simulator, in "Follow the price" against the Amber simulator's day on the same wall clock.
 *
 * The demo's day is overcast (from the demo's start the panels get 30 % of the clear-sky sun; the
 * seeded week before it was sunny): on a sunny day the simulated panels fill the battery by mid
 * morning whatever the plan does, so there would be nothing to buy. On the grey day the plan
 * charges from the grid in the cheapest hours (11:00–12:00, when the price is below zero), holds
 * the battery until the evening peak and lets it cover the house then.
 */

/** The share of the clear-sky sun the demo plant's panels get: all of it before `start`, 30 % after. */
export function demoSky(start: number): (t: number) => number {
  return (t) => (t < start ? 1 : 0.3);
}

/** The demo's first-start control settings: on, writing, following the price at the battery's full power. */
export function demoControlSettings(): Record<string, unknown> {
  return {
    control: {
      enabled: true,
      dryRun: false,
      // The demo's clock runs 30x: a poll every simulated minute, so a few late real seconds must not read as stale.
      staleAfterPolls: 10,
      plan: { targetSoc: 100, readyBy: '17:00', chargePowerW: 5000, holdDearestHours: 3 },
    },
  };
}

/** What the demo's start asks of the running energy service: "Follow the price", as the owner (this PC) would. */
export const FOLLOW_THE_PRICE = { method: 'POST', url: '/api/control/mode', payload: { mode: 'schedule' } } as const;
