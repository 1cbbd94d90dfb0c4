/** Number, power, energy, money and time formatting shared by the pages. */

export function formatPower(w: number | null | undefined): string {
  if (w === null || w === undefined) return '—';
  const a = Math.abs(w);
  if (a >= 1000) return `${(a / 1000).toFixed(a >= 10_000 ? 1 : 2)} kW`;
  return `${Math.round(a)} W`;
}

export function formatSignedPower(w: number | null | undefined): string {
  if (w === null || w === undefined) return '—';
  return `${w < 0 ? '−' : ''}${formatPower(w)}`;
}

export function formatKwh(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined) return '—';
  return `${v.toFixed(digits)} kWh`;
}

export function formatPercent(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  return `${Math.round(v * 10) / 10}%`;
}

export function formatMoney(v: number | null | undefined, currency: string): string {
  if (v === null || v === undefined) return '—';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(v);
  } catch {
    return `${v.toFixed(2)} ${currency}`;
  }
}

export function formatTime(t: string | number | null | undefined): string {
  if (t === null || t === undefined) return '—';
  return new Date(t).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function formatDateTime(t: string | number | null | undefined): string {
  if (t === null || t === undefined) return '—';
  return new Date(t).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function formatDuration(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return '—';
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

/** "12 s ago", "3 min ago" relative to now. */
export function formatAgo(t: string | number | null | undefined, now = Date.now()): string {
  if (t === null || t === undefined) return 'never';
  const s = Math.max(0, Math.round((now - new Date(t).getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}
