import net from 'node:net';
import type os from 'node:os';
import { refusalFor } from '../../core/outbound.js';

export type InterfaceList = ReturnType<typeof os.networkInterfaces>;

export const SCAN_CONCURRENCY = 64;
export const SCAN_TIMEOUT_MS = 600;

/**
 * The /24 networks to scan, as three-octet prefixes (`192.168.1`): one per IPv4 interface,
 * skipping internal (loopback) interfaces unless `includeInternal` is set (tests inject a
 * loopback interface list that way; production never scans loopback) and interfaces whose address
 * is not on a home network (a public address: the outbound gate's LAN-device policy).
 */
export function subnetsToScan(interfaces: InterfaceList, opts: { includeInternal?: boolean; loopbackOnly?: boolean } = {}): string[] {
  const out = new Set<string>();
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) {
      const family = info.family as string | number;
      if (family !== 'IPv4' && family !== 4) continue;
      if (info.internal && !opts.includeInternal) continue;
      const octets = info.address.split('.');
      if (octets.length !== 4) continue;
      // The outbound gate's LAN-device policy: an interface on a public network is never swept.
      if (refusalFor('lan-device', info.address) !== null) continue;
      if (opts.loopbackOnly && octets[0] !== '127') continue;
      out.add(octets.slice(0, 3).join('.'));
    }
  }
  return [...out];
}

/**
 * True inside a test runner (vitest, Playwright workers). The scan then keeps to 127.0.0.0/8 whatever
 * interface list it is given, so a test that opens the setup wizard without injecting a loopback
 * list can never sweep the machine's real LAN.
 */
export function underTestRunner(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.VITEST || env.TEST_WORKER_INDEX);
}

/** Hosts .1 to .254 of each /24. */
export function hostsOf(subnets: readonly string[]): string[] {
  return subnets.flatMap((prefix) => Array.from({ length: 254 }, (_, i) => `${prefix}.${i + 1}`));
}

/** Whether a plain TCP connect to host:port succeeds within `timeoutMs`. */
export function tcpAnswers(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** TCP-connects to every host, `concurrency` at a time; resolves with those that accepted, in input order. */
export type Probe = (host: string, port: number, timeoutMs: number) => Promise<boolean>;

export async function sweep(hosts: readonly string[], port: number, opts: { concurrency?: number; timeoutMs?: number; probe?: Probe } = {}): Promise<string[]> {
  const concurrency = opts.concurrency ?? SCAN_CONCURRENCY;
  const timeoutMs = opts.timeoutMs ?? SCAN_TIMEOUT_MS;
  const probe = opts.probe ?? tcpAnswers;
  const open = new Array<boolean>(hosts.length).fill(false);
  let next = 0;
  const worker = async () => {
    while (next < hosts.length) {
      const i = next++;
      open[i] = await probe(hosts[i]!, port, timeoutMs);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, hosts.length) }, worker));
  return hosts.filter((_, i) => open[i]);
}

export interface DiscoveredGateway {
  host: string;
  port: number;
  soc: number;
}

export interface DiscoveryResult {
  gateways: DiscoveredGateway[];
  scannedHosts: number;
  ms: number;
}

/**
 * The LAN scan: derive each interface's /24, TCP-connect to the Modbus port on all 254 hosts
 * (64 at a time, 600 ms timeout), then confirm each answering host with a real SOC read
 * (`confirm` resolves null when the host is not a gateway). Only confirmed hosts are returned.
 */
export async function discoverGateways(opts: {
  interfaces: InterfaceList;
  port: number;
  includeInternal?: boolean;
  /** Scan only 127.0.0.0/8 networks (forced on under a test runner). */
  loopbackOnly?: boolean;
  confirm: (host: string, port: number) => Promise<number | null>;
  concurrency?: number;
  timeoutMs?: number;
  /** The reachability check per host (default: a plain TCP connect). */
  probe?: Probe;
}): Promise<DiscoveryResult> {
  const t0 = performance.now();
  const loopbackOnly = opts.loopbackOnly || underTestRunner();
  const hosts = hostsOf(subnetsToScan(opts.interfaces, { includeInternal: opts.includeInternal, loopbackOnly }));
  const answering = await sweep(hosts, opts.port, { concurrency: opts.concurrency, timeoutMs: opts.timeoutMs, probe: opts.probe });
  const confirmed = await Promise.all(answering.map(async (host) => ({ host, soc: await opts.confirm(host, opts.port) })));
  const gateways = confirmed.filter((c): c is { host: string; soc: number } => c.soc !== null).map((c) => ({ host: c.host, port: opts.port, soc: c.soc }));
  return { gateways, scannedHosts: hosts.length, ms: Math.round(performance.now() - t0) };
}

/** A one-interface list on loopback (for the demo and tests: never a real interface). */
export function loopbackInterfaces(address = '127.0.0.1'): InterfaceList {
  return { lo: [{ address, netmask: '255.255.255.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: `${address}/24` }] };
}
