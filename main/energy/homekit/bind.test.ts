import { describe, expect, it } from 'vitest';
import { energySeedsFromEnv } from '../settings/energy-settings.js';
import { bindProblem, loopbackOnly } from './bind.js';
import { maskPin } from './bridge.js';
import { parseSetupUri, setupUri } from './setup-uri.js';

const nets = () => ({
  lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
  eth0: [{ address: '192.168.1.20', netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal: false, cidr: '192.168.1.20/24' }],
}) as never;

describe('HomeKit bind list', () => {
  it('refuses an address no interface has (the advertiser would fall back to every interface)', () => {
    expect(bindProblem(['127.0.0.2'], nets)).toContain('127.0.0.2');
    expect(bindProblem(['wlan9'], nets)).toContain('wlan9');
    expect(bindProblem(['127.0.0.1'], nets)).toBeNull();
    expect(bindProblem([], nets)).toBeNull();
  });

  it('knows when nothing reaches the LAN', () => {
    expect(loopbackOnly(['127.0.0.1'], nets)).toBe(true);
    expect(loopbackOnly(['lo'], nets)).toBe(true);
    expect(loopbackOnly(['127.0.0.1', '192.168.1.20'], nets)).toBe(false);
    expect(loopbackOnly(['eth0'], nets)).toBe(false);
    expect(loopbackOnly([], nets)).toBe(false); // empty = every interface
  });
});

describe('HomeKit seeds and setup payload', () => {
  it('HOMEKIT_PORT, HOMEKIT_PIN and HOMEKIT_BIND seed the bridge and enable it', () => {
    const s = energySeedsFromEnv({ HOMEKIT_PORT: '52001', HOMEKIT_PIN: '482-19-305', HOMEKIT_BIND: '127.0.0.1, ::1' });
    expect(s.homekit).toMatchObject({ enabled: true, port: 52001, pin: '482-19-305', bind: ['127.0.0.1', '::1'] });
    expect(energySeedsFromEnv({}).homekit).toMatchObject({ enabled: false, port: 51827, bind: [] });
  });

  it('a trivial or malformed HOMEKIT_PIN stops the start with a message naming the variable (PIN masked)', () => {
    expect(() => energySeedsFromEnv({ HOMEKIT_PIN: '123-45-678' })).toThrow(/^HOMEKIT_PIN: .*too simple.*\*\*\*-\*\*-\*\*\*/);
    expect(() => energySeedsFromEnv({ HOMEKIT_PIN: '12345678' })).toThrow(/^HOMEKIT_PIN/);
    expect(() => energySeedsFromEnv({ HOMEKIT_PORT: '80' })).toThrow(/^HOMEKIT_PORT/);
  });

  it('the setup URI is X-HM:// with the bridge category, the IP flag, the code and the setup id', () => {
    // Worked example: code 031-45-154 = 3145154, bridge (category 2), IP bit 28 → 2·2^31 + 2^28 + 3145154.
    const uri = setupUri('031-45-154', 2, 'AB12');
    expect(uri).toBe(`X-HM://${(2 * 2 ** 31 + 2 ** 28 + 3145154).toString(36).toUpperCase().padStart(9, '0')}AB12`);
    expect(parseSetupUri(uri)).toEqual({ pin: '031-45-154', category: 2, ip: true, setupId: 'AB12' });
    expect(maskPin('031-45-154')).toBe('***-**-***');
  });
});
