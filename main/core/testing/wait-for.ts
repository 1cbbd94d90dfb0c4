/**
 * Tests: resolves with the first defined value `probe` gives (tried every 100 ms; a probe that
 * throws counts as not yet), or fails naming `what` after `ms`.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
