import { describe, expect, it } from 'vitest';
import { formatInZone } from './format.js';

// spec/recording-sync.md: `TZ` (IANA name) is exposed as `tz` and used to render all timestamps.
// The pages format every timestamp with formatInZone(iso, tz from GET /api/settings).
describe('timestamps rendered in the configured TZ', () => {
  const instant = '2026-11-22T10:05:00.000Z';

  it('the same instant shows the wall-clock time of the zone, not of the browser', () => {
    const hobart = formatInZone(instant, 'Australia/Hobart'); // UTC+11 in November
    const perth = formatInZone(instant, 'Australia/Perth'); // UTC+8
    const utc = formatInZone(instant, 'UTC');
    expect(hobart).toMatch(/9:05/);
    expect(hobart).toMatch(/22/);
    expect(perth).toMatch(/6:05/);
    expect(utc).toMatch(/10:05/);
    expect(new Set([hobart, perth, utc]).size).toBe(3);
  });

  it('crosses the date line with the zone', () => {
    expect(formatInZone('2026-11-22T14:30:00.000Z', 'Australia/Hobart')).toMatch(/23/);
    expect(formatInZone('2026-11-22T14:30:00.000Z', 'America/New_York')).toMatch(/22/);
  });

  it('no timestamp renders as a dash; an unknown zone falls back instead of throwing', () => {
    expect(formatInZone(null, 'UTC')).toBe('—');
    expect(formatInZone(undefined, 'UTC')).toBe('—');
    expect(formatInZone(instant, 'Not/AZone')).toMatch(/2026/);
  });
});
