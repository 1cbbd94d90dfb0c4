import { describe, expect, it } from 'vitest';
import { createOutbound, OutboundRefused } from '../../core/outbound.js';
import { gatedMediaGet, type MediaGet } from './media-get.js';

describe('media downloads go through the outbound gate (the box is a LAN device)', () => {
  const recording = () => {
    const calls: Array<{ url: string; address: unknown }> = [];
    const inner: MediaGet = async (url, opts) => {
      calls.push({ url, address: opts.address });
      throw new Error('not reached in this test');
    };
    return { calls, inner };
  };

  it('a media URL on an address no connection may go to, or on the internet, is refused before any request', async () => {
    const { calls, inner } = recording();
    const get = gatedMediaGet(inner, createOutbound({ resolve: async () => [{ address: '93.184.216.34', family: 4 }] }));
    const signal = new AbortController().signal;
    await expect(get('http://0.0.0.0:49152/web/1.ts', { headers: {}, signal })).rejects.toBeInstanceOf(OutboundRefused);
    await expect(get('http://box.example:49152/web/1.ts', { headers: {}, signal })).rejects.toThrow(/box\.example resolves to 93\.184\.216\.34, which is an internet address/);
    expect(calls).toEqual([]);
  });

  it('a name is resolved once and the download is told the checked address to connect to', async () => {
    const { calls, inner } = recording();
    const get = gatedMediaGet(inner, createOutbound({ resolve: async () => [{ address: '192.168.1.40', family: 4 }] }));
    await expect(get('http://box.home.test:49152/web/1.ts', { headers: {}, signal: new AbortController().signal })).rejects.toThrow('not reached');
    expect(calls).toEqual([{ url: 'http://box.home.test:49152/web/1.ts', address: { address: '192.168.1.40', family: 4 } }]);
  });
});
