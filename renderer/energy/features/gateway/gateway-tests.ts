import { api } from '../../../api.js';

export interface GatewayTestResult {
  ok: boolean;
  soc?: number | null;
  model?: string | null;
  firmware?: string | null;
  ms?: number;
  error?: string;
}

export async function testGateway(host: string, port: number | undefined): Promise<string> {
  if (!host.trim()) throw new Error('Enter the gateway address first.');
  const r = await api.post<GatewayTestResult>('/api/test/gateway', { host: host.trim(), ...(port ? { port } : {}) });
  if (!r.ok) throw new Error(`No gateway answered at ${host}: ${r.error ?? 'unknown error'}`);
  return `Gateway answered in ${r.ms ?? '?'} ms${r.model ? `: ${r.model}` : ''}${r.firmware ? `, firmware ${r.firmware}` : ''}${r.soc !== undefined && r.soc !== null ? `, battery ${r.soc}%` : ''}.`;
}

/** Re-checks which unit ids hold inverters; the bridge probes them between polls, in the background. */
export async function rescanInverters(): Promise<string> {
  const r = await api.post<{ queued: number; inverterUnits: number[] }>('/api/gateway/rescan', {});
  const now = r.inverterUnits.length ? `Inverters on unit ${r.inverterUnits.join(', ')}.` : 'No inverter found yet.';
  return `${now} Checking ${r.queued} more unit id${r.queued === 1 ? '' : 's'} in the background; new inverters appear on the dashboard when found.`;
}
