import net from 'node:net';
import os from 'node:os';

/** What binding a port said: null when it could be bound (and was released at once), else the error code. */
export type BindProbe = (port: number, host: string) => Promise<string | null>;

/** Tries to listen on `host`:`port` and closes again at once: the one sure test that a later start can bind it. */
export const probeBind: BindProbe = (port, host) =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'EINVAL'));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });

/**
 * The first entry of a bind list (IP addresses or interface names) this PC does not have, as a
 * plain reason ("no network interface has the address 192.0.2.7"), or null when all are here.
 */
export function missingBindEntry(bind: readonly string[], interfaces: () => NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces): string | null {
  if (bind.length === 0) return null;
  const all = Object.entries(interfaces()).flatMap(([name, infos]) => (infos ?? []).map((i) => ({ name, ...i })));
  for (const b of bind) {
    if (net.isIP(b)) {
      if (!all.some((i) => i.address === b)) return `no network interface has the address ${b}`;
    } else if (!all.some((i) => i.name === b)) {
      return `no network interface is named ${b}`;
    }
  }
  return null;
}

/** A port another listener of this app holds (the other service, HomeKit). */
export interface PortClaim {
  port: number;
  /** Who holds it, for the refusal: "the recording sync". */
  holder: string;
}

/**
 * Why a service could not listen on `port` at `host`, in plain words for a refusal or a start-up
 * line: the port belongs to another part of this app, another program has it, it is a privileged
 * port this process may not bind, or the address is not one of this PC's. Null when it can bind.
 */
export async function portProblem(opts: { port: number; host: string; claims: readonly PortClaim[]; probe?: BindProbe }): Promise<string | null> {
  const claim = opts.claims.find((c) => c.port === opts.port);
  if (claim) return `port ${opts.port} is already used by ${claim.holder}; choose another port`;
  return listenCodeProblem(await (opts.probe ?? probeBind)(opts.port, opts.host), opts.port, opts.host);
}

/** The plain-words reason for a listen error code (EADDRINUSE, EACCES, EADDRNOTAVAIL), or null for none. */
export function listenCodeProblem(code: string | null | undefined, port: number, host: string): string | null {
  if (!code) return null;
  if (code === 'EADDRINUSE') return `port ${port} is already used by another program on this computer; choose a free port`;
  if (code === 'EACCES' || code === 'EPERM') return port < 1024 ? `port ${port} is below 1024, which this app is not allowed to use; choose a port from 1024 up` : `this app is not allowed to use port ${port}; choose another port`;
  if (code === 'EADDRNOTAVAIL') return `${host} is not an address of this computer`;
  return `port ${port} on ${host} cannot be used (${code})`;
}
