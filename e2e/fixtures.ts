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

export { expect };
