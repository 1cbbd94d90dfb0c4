import { useState } from 'react';
import { api, messageOf } from '../../api.js';
import { useId } from 'react';
import { Banner } from '../../kit/Banner.js';
import { WhyDisabled } from '../../kit/SectionedPage.js';

type Result = { kind: 'ok' | 'error' | 'info'; text: string } | null;

/** A button that calls a test endpoint and shows what came back (or the server's error); `disabled` is the reason it cannot run yet. */
export function TestButton({ label, run, disabled }: { label: string; run: () => Promise<string>; disabled?: string | null }) {
  const whyId = useId();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result>(null);
  const click = async () => {
    setBusy(true);
    setResult(null);
    try {
      setResult({ kind: 'ok', text: await run() });
    } catch (err) {
      setResult({ kind: 'error', text: messageOf(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span>
      <button type="button" onClick={() => void click()} disabled={busy || Boolean(disabled)} aria-describedby={disabled ? whyId : undefined}>
        {busy ? 'Testing…' : label}
      </button>
      <WhyDisabled id={whyId} why={busy ? null : (disabled ?? null)} />
      {result && <Banner kind={result.kind}>{result.text}</Banner>}
    </span>
  );
}

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

/** Probes the weather service with the place or coordinates being edited (not yet saved). */
export async function testWeather(w: Record<string, unknown>): Promise<string> {
  const lat = typeof w.latitude === 'number' ? w.latitude : null;
  const lon = typeof w.longitude === 'number' ? w.longitude : null;
  const location = typeof w.location === 'string' ? w.location.trim() : '';
  const body = lat !== null && lon !== null ? { latitude: lat, longitude: lon, ...(location ? { location } : {}) } : { location };
  if (lat === null && !location) throw new Error('Enter a place name or coordinates first.');
  const r = await api.post<{ ok: boolean; error?: string; outdoorTemp?: number | null; unit?: string; location?: string; detail?: string }>('/api/test/weather', body);
  if (!r.ok) throw new Error(`The weather service did not answer: ${r.error ?? 'unknown error'}`);
  const temp = r.outdoorTemp === null || r.outdoorTemp === undefined ? 'no temperature' : `${r.outdoorTemp} °${r.unit === 'fahrenheit' ? 'F' : 'C'}`;
  return `Weather answered: ${temp} at ${r.location ?? location}${r.detail ? `, ${r.detail}` : ''}.`;
}
