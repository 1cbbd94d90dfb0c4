import { describe, expect, it } from 'vitest';
import type { JsonSchema } from './schema.js';
import { amount, labelOf, plainMessage, unitOf } from './plain.js';

// The nodes as GET /api/settings/schema publishes them (spec limits, not this module's constants).
const interval: JsonSchema = { type: 'integer', minimum: 1000, maximum: 600_000, label: 'Poll interval' };
const port: JsonSchema = { type: 'integer', minimum: 1, maximum: 65535, label: 'Port' };
const capacity: JsonSchema = { anyOf: [{ type: 'number', exclusiveMinimum: 0, maximum: 1000 }, { type: 'null' }], label: 'Battery capacity' };
const reserve: JsonSchema = { anyOf: [{ type: 'number', minimum: 0, maximum: 100 }, { type: 'null' }], label: 'Reserve level' };
const time: JsonSchema = { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' };
const currency: JsonSchema = { type: 'string', pattern: '^[A-Z]{3}$' };
const name: JsonSchema = { type: 'string', minLength: 1, maxLength: 40 };
const url: JsonSchema = { type: 'string', maxLength: 2048 };
const unitEnum: JsonSchema = { type: 'string', enum: ['celsius', 'fahrenheit'] };
const flag: JsonSchema = { type: 'boolean' };
const hosts: JsonSchema = { type: 'array', items: { type: 'string' }, maxItems: 32, label: 'Extra host names' };

describe('settings messages in plain words', () => {
  it('numbers: below, above, not a number, not whole, blank, in the unit the control shows', () => {
    expect(plainMessage('polling.intervalMs', interval, 500, 'polling.intervalMs: Too small: expected number to be >=1000')).toBe('Poll interval must be at least 1 second.');
    expect(plainMessage('polling.intervalMs', interval, 700_000)).toBe('Poll interval must be at most 600 seconds.');
    expect(plainMessage('gateway.port', port, 70000, 'Too big: expected number to be <=65535')).toBe('Port must be at most 65535.');
    expect(plainMessage('gateway.port', port, 'abc')).toBe('Port must be a number.');
    expect(plainMessage('gateway.port', port, 502.5)).toBe('Port must be a whole number.');
    expect(plainMessage('gateway.port', port, null)).toBe('Port is required.');
    expect(plainMessage('battery.capacityKwh', capacity, 0)).toBe('Battery capacity must be more than 0 kWh.');
    expect(plainMessage('battery.capacityKwh', capacity, 'lots')).toBe('Battery capacity must be a number (in kWh).');
    expect(plainMessage('battery.reserveSoc', reserve, 120)).toBe('Reserve level must be at most 100%.');
  });

  it('text: times, codes, names, web addresses, host names', () => {
    expect(plainMessage('tariff.superExport.start', time, '25:00', 'must be a time HH:MM (24-hour)')).toBe('Start must be a time such as 07:30.');
    expect(plainMessage('general.currency', currency, 'aud')).toBe('Currency must be a three-letter currency code such as AUD.');
    expect(plainMessage('names.smartLoads.3', name, '   ')).toBe('The name of smart load 3 cannot be empty.');
    expect(plainMessage('names.smartLoads.3', name, 'x'.repeat(41))).toBe('The name of smart load 3 can be at most 40 characters.');
    expect(plainMessage('weather.forecastUrl', url, 'ftp://x', 'weather.forecastUrl: must be an http(s) URL')).toBe('Forecast URL must be a web address starting with http:// or https://.');
    expect(plainMessage('general.allowedHosts', hosts, ['bad host'], 'general.allowedHosts.0: must be a host name such as pc.home.lan')).toBe('Extra host names: each entry must be a host name such as pc.home.lan.');
  });

  it('choices, switches and unknown fields', () => {
    expect(plainMessage('general.temperatureUnit', unitEnum, 'kelvin')).toBe('Temperature unit must be one of: celsius, fahrenheit.');
    expect(plainMessage('weather.enabled', flag, 'yes')).toBe('Enabled must be on or off.');
    expect(plainMessage('polling.speed', undefined, 1, 'unknown field "speed"')).toBe('Speed is not a setting this bridge knows; reload the page.');
    // Never the validator's wording.
    expect(plainMessage('gateway.port', port, 70000, 'Too big: expected number to be <=65535')).not.toMatch(/expected|<=/);
  });

  it('labels and units people read', () => {
    expect(labelOf('polling.retryDelayMs')).toBe('Retry delay');
    expect(labelOf('weather.latitude')).toBe('Latitude');
    expect(unitOf('gateway.timeoutMs')?.symbol).toBe('s');
    expect(amount(200, unitOf('gateway.timeoutMs'))).toBe('0.2 seconds');
    expect(amount(1 / 24, unitOf('history.retentionDays'))).toBe('0.0417 days');
  });
});

describe('rules across fields keep the bridge’s own reason', () => {
  it('a valid time in an overlapping window is not called a bad time', () => {
    const msg = plainMessage('tariff.windows.1.start', time, '08:00', 'tariff.windows.1.start: overlaps window 1');
    expect(msg).toBe('Start: overlaps window 1.');
    expect(plainMessage('tariff.windows.1', { type: 'object', properties: {} }, {}, 'tariff.windows.1: overlaps window 1')).toBe('Time-of-use window 2: overlaps window 1.');
  });
});

describe('labels and units from the schema', () => {
  it('the schema label names the field, in refusals too; the key is only a fallback', () => {
    const probe: JsonSchema = { type: 'integer', minimum: 50, maximum: 5000, label: 'Search timeout' };
    expect(labelOf('gateway.probeTimeoutMs', probe)).toBe('Search timeout');
    expect(labelOf('gateway.probeTimeoutMs')).toBe('Probe timeout');
    expect(plainMessage('gateway.probeTimeoutMs', probe, 10)).toBe('Search timeout must be at least 0.05 seconds.');
    // A nullable field: the label sits on the outer node.
    expect(labelOf('battery.reserveSoc', { ...reserve, label: 'Reserve level' })).toBe('Reserve level');
  });
  it('a number carries the unit its key names: …Ms in seconds, …Seconds, …Minutes', () => {
    expect(unitOf('gateway.probeTimeoutMs')?.symbol).toBe('s');
    expect(unitOf('gateway.probeTimeoutMs')?.factor).toBe(1000);
    expect(unitOf('mqtt.publishIntervalSeconds')?.symbol).toBe('s');
    expect(unitOf('mqtt.publishIntervalSeconds')?.factor).toBeUndefined();
    expect(unitOf('solar.ratedKwp')?.symbol).toBe('kWp');
    expect(unitOf('gateway.port')).toBeUndefined();
  });
});
