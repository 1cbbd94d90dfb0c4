import type os from 'node:os';

/**
 * A service could not listen (its port taken, a port it may not use, an address the PC does not
 * have); its message is the one line a user needs: what happened and which setting fixes it.
 */
export class CannotListenError extends Error {
  readonly port: number;
  readonly host: string;
  readonly code: string;
  constructor(port: number, host: string, code: string, what?: PortOwner) {
    const who = what ? `the ${what.service}` : 'a service';
    const fix = what ? (what.setting ? `change ${what.setting.name} in ${what.setting.file} (or set ${what.variable})` : `set ${what.variable}`) : '';
    const tail = (advice: string) => (what ? ` — ${advice}` : '');
    let text: string;
    if (code === 'EADDRINUSE') text = `port ${port} on ${host} is already in use, so ${who} cannot start${tail(`stop whatever uses it, or ${fix} to a free port`)}`;
    else if (code === 'EACCES' || code === 'EPERM') text = `port ${port} on ${host} is not allowed for this app (ports below 1024 need administrator rights), so ${who} cannot start${tail(`${fix} to a port from 1024 up`)}`;
    else if (code === 'EADDRNOTAVAIL') text = `${host} is not an address of this computer, so ${who} cannot listen on it${tail(`set ${what?.hostVariable ?? 'BIND_HOST'} to one of its addresses, or 0.0.0.0 for all`)}`;
    else text = `${who} cannot listen on port ${port} on ${host} (${code})${tail(`${fix} to another port`)}`;
    super(text);
    this.name = 'CannotListenError';
    this.port = port;
    this.host = host;
    this.code = code;
  }
}

/** Thrown by `listen` when the port is taken; its message is the one line a user needs. */
export class PortInUseError extends CannotListenError {
  constructor(port: number, host: string, what?: PortOwner) {
    super(port, host, 'EADDRINUSE', what);
    this.name = 'PortInUseError';
  }
}

/** Which service a port belongs to and what moves it, for the error line. */
export interface PortOwner {
  service: string;
  /** The environment variable that sets the port. */
  variable: string;
  /** The environment variable that sets the address (default BIND_HOST). */
  hostVariable?: string;
  /** The stored setting the port came from, and its file (when no environment variable set it). */
  setting?: { name: string; file: string };
}

/** A listen error as the line a user needs (a `CannotListenError`) when it is one of the known causes; anything else as it was. */
export function explainListenError(err: unknown, port: number, host: string, owner: PortOwner): unknown {
  if (err instanceof CannotListenError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'EADDRINUSE' || code === 'EACCES' || code === 'EPERM' || code === 'EADDRNOTAVAIL' ? new CannotListenError(port, host, code, owner) : err;
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
