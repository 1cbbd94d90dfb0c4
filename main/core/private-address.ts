import net from 'node:net';

const V4_PRIVATE: Array<[number, number]> = [
  [0x0a000000, 8], // 10.0.0.0/8
  [0xac100000, 12], // 172.16.0.0/12
  [0xc0a80000, 16], // 192.168.0.0/16
  [0x7f000000, 8], // 127.0.0.0/8 loopback
  [0xa9fe0000, 16], // 169.254.0.0/16 link-local
];

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}

/**
 * Whether `ip` (an IP literal) is on the home side of the router: private IPv4 ranges, loopback,
 * link-local, IPv6 unique-local (fc00::/7) and link-local (fe80::/10), IPv4-mapped forms of those.
 * Public, unspecified, multicast and broadcast addresses are not.
 */
export function isPrivateAddress(ip: string): boolean {
  const addr = ip.split('%')[0]!.toLowerCase();
  const family = net.isIP(addr);
  if (family === 4) {
    const n = v4ToInt(addr);
    return V4_PRIVATE.some(([base, bits]) => (n >>> (32 - bits)) === (base >>> (32 - bits)));
  }
  if (family !== 6) return false;
  const mapped = /^(?:0*:)*:?(?:0*:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(addr) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
  if (mapped) return isPrivateAddress(mapped[1]!);
  if (addr === '::1') return true;
  const first = parseInt(addr.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  return false;
}
