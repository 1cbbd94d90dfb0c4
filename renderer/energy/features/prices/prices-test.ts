import { api } from '../../../api.js';

type Obj = Record<string, unknown>;

/** One fetch from the price source being edited (the saved token unless one is typed); nothing is kept. */
export async function testPrices(p: Obj): Promise<string> {
  const source = p.source;
  if (source !== 'amber' && source !== 'octopus') throw new Error('Choose Amber or Octopus first.');
  const amber = (p.amber ?? {}) as Obj;
  const octopus = (p.octopus ?? {}) as Obj;
  const { baseUrl: _a, ...octopusCodes } = octopus;
  const body = source === 'amber' ? { source, amber: { siteId: String(amber.siteId ?? ''), ...(amber.token ? { token: String(amber.token) } : {}) } } : { source, octopus: octopusCodes };
  const r = await api.post<{ ok: boolean; error?: string; intervals?: number; currency?: string; current?: { importPerKwh: number; feedInPerKwh: number | null; descriptor: string | null } | null }>('/api/test/prices', body);
  if (!r.ok) throw new Error(`The price source did not answer: ${r.error ?? 'unknown error'}`);
  if (!r.current) return `It answered with ${r.intervals ?? 0} intervals, but none covers now.`;
  const money = (v: number) => `${(v * 100).toFixed(2)} ${r.currency === 'GBP' ? 'p' : 'c'}/kWh`;
  const feedIn = r.current.feedInPerKwh === null ? '' : `, feed-in ${money(r.current.feedInPerKwh)}`;
  return `Prices answered: now ${money(r.current.importPerKwh)} to buy${feedIn}${r.current.descriptor ? ` (${r.current.descriptor})` : ''}; ${r.intervals} intervals.`;
}
