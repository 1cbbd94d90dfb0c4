import { EVERY_100_MS, expect, test } from './fixtures.js';

// Issue 41 item 5: the event stream carries each poll's snapshot (`event: snapshot`), so the
// dashboard fetches nothing per event, and the header follows the same stream instead of polling.
test.describe('dashboard on the event stream', () => {
  test('after the page loads, poll events arrive and no /api/snapshot or /api/state request is made', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (req) => {
      const { pathname } = new URL(req.url());
      if (pathname === '/api/snapshot' || pathname === '/api/state') asked.push(pathname);
    });
    await page.goto('/');
    await expect(page.getByTestId('connection-status')).toContainText('Gateway connected');
    await expect(page.getByTestId('header-sync-status')).toHaveText('Reading the gateway');
    const loaded = asked.length;
    // Three polls reach the page (each moves the "last poll" time) ...
    for (let i = 0; i < 3; i++) {
      const before = await page.getByTestId('last-poll').getAttribute('datetime');
      await expect.poll(() => page.getByTestId('last-poll').getAttribute('datetime'), EVERY_100_MS).not.toBe(before);
    }
    // ... and none of them made the page ask for the snapshot or the state.
    expect(asked.slice(loaded)).toEqual([]);
    expect(asked.filter((p) => p === '/api/snapshot')).toEqual([]);
  });
});
