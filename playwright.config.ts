import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * Debian's headless Chromium (package chromium-headless-shell: the same Chromium release and engine as
 * /usr/bin/chromium, built without the desktop browser around it), the build Playwright itself runs
 * headless tests on. Measured here: a new context and page cost 0.54 CPU-s against 1.55 in the full
 * browser, a page loaded to its first live state 2.1 against 4.4; the whole e2e run took 5.7 min
 * against 9.1 (docs/runtime.md). Without the package, the full browser; CHROMIUM_PATH picks either.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const browser = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/**
 * End-to-end specs: Debian's Chromium against the energy service and the gateway simulator, all on
 * loopback. Each test starts its own service (port 0, temp data dir); see e2e/fixtures.ts.
 * Run `npm run test:e2e` (it builds the UI first). Never `playwright install`: the browser is the
 * system one.
 */
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 2,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  forbidOnly: Boolean(process.env.CI),
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    // No trace recording: recording one (a DOM snapshot per action and a screencast) for every test,
    // to keep it only on failure, was about 40 % of the run's CPU time (issue 39). A failure leaves
    // its screenshot and error-context.md (the page's accessibility tree); for a full trace, run the
    // spec again with `--trace on`.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: browser,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
