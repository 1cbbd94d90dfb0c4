import type os from 'node:os';

/** Thrown by `listen` when the port is taken; its message is the one line a user needs. */
export class PortInUseError extends Error {
  readonly port: number;
  constructor(port: number, host: string, what?: PortOwner) {
    const who = what ? `the ${what.service}` : 'a service';
    const fix = what ? ` — stop whatever uses it, or set ${what.variable} to a free port` : '';
    super(`port ${port} on ${host} is already in use, so ${who} cannot start${fix}`);
    this.name = 'PortInUseError';
    this.port = port;
  }
}

/** Which service a port belongs to and the environment variable that moves it, for the error line. */
export interface PortOwner {
  service: string;
  variable: string;
}

/**
 * The URLs a phone or another PC on the LAN can open for a service bound to `host`: one per
 * non-internal IPv4 address when bound to all interfaces, else the bound address itself.
 */
export function lanUrls(interfaces: ReturnType<typeof os.networkInterfaces>, host: string, port: number): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [`http://${host.includes(':') ? `[${host}]` : host}:${port}/`];
  const urls: string[] = [];
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) {
      const family = info.family as string | number;
      if ((family === 'IPv4' || family === 4) && !info.internal) urls.push(`http://${info.address}:${port}/`);
    }
  }
  return [`http://127.0.0.1:${port}/`, ...new Set(urls)];
}
