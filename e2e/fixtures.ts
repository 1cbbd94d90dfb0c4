import { test as base, expect } from '@playwright/test';
import { startBridge, type Bridge, type BridgeOptions } from './bridge.js';

/**
 * `bridge`: a fresh energy service + gateway simulator per test (tests change settings, passcodes
 * and take the gateway offline, so nothing is shared). `baseURL` points the page at it.
 */
export const test = base.extend<{ bridge: Bridge; bridgeOptions: BridgeOptions }>({
  bridgeOptions: [{ configured: true, simHour: 12 }, { option: true }],
  bridge: async ({ bridgeOptions }, use) => {
    const bridge = await startBridge(bridgeOptions);
    await use(bridge);
    await bridge.stop();
  },
  baseURL: async ({ bridge }, use) => {
    await use(bridge.url);
  },
});

/**
 * `expect.poll` options for a wait on something that changes once a poll (a second apart): checked
 * every 100 ms. Playwright's default backs off to once a second, which found each new poll up to a
 * second late (the locator assertions back off to 500 ms by themselves).
 */
export const EVERY_100_MS = { intervals: [100] };

export { expect };
