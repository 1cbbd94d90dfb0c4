/**
 * Gateway discovery figures: `node --import tsx bench/energy-discovery.bench.ts` (or `npm run bench discovery`).
 *
 * Network safety: nothing here leaves loopback. On Linux the bench re-runs itself inside a private
 * user + network namespace (`unshare -rn`) where 127.99.0.0/24 is routed into a tun device nobody
 * reads, so every connect to it times out exactly like an empty LAN /24; the namespace has no other
 * interface. Without `unshare` only the loopback figure is measured.
 */
import { spawnSync } from 'node:child_process';
import { createModbusConnection } from '../main/energy/gateway/connection.js';
import { confirmGateway } from '../main/energy/discovery/gateway-probe.js';
import { discoverGateways, loopbackInterfaces, SCAN_TIMEOUT_MS, tcpAnswers, type InterfaceList } from '../main/energy/discovery/lan-scan.js';
import { startGatewaySimulator } from '../main/energy/simulator/gateway-simulator.js';
import { figure } from './report.js';

const SILENT_PREFIX = '127.99.0';
const NAMESPACE_SETUP = [
  'ip link set lo up',
  'ip tuntap add dev tun0 mode tun',
  'ip link set tun0 up',
  // Keep 127.0.0.0/16 local (simulators, the tun's source) and send 127.99.0.0/24 into the tun.
  'ip route del local 127.0.0.0/8 dev lo table local',
  'ip route add local 127.0.0.0/16 dev lo table local',
  `ip route add ${SILENT_PREFIX}.0/24 dev tun0`,
].join(' && ');

const SETUP_FAILED = 97;

const confirm = (host: string, port: number) => confirmGateway(host, port, createModbusConnection);

async function silentSweep(): Promise<boolean> {
  // The namespace's stand-in for a LAN interface: an address on the silent /24, not internal.
  const interfaces: InterfaceList = {
    tun0: [{ address: `${SILENT_PREFIX}.1`, netmask: '255.255.255.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: false, cidr: `${SILENT_PREFIX}.1/24` }],
  };
  const result = await discoverGateways({ interfaces, port: 502, confirm });
  if (result.gateways.length !== 0 || result.scannedHosts !== 254) throw new Error(`unexpected sweep result ${JSON.stringify(result)}`);
  const ok = figure('empty /24 sweep, every host silent (254 hosts, 64 at a time, 600 ms timeout)', result.ms, 'ms', { max: 3500 });
  // Baseline (same run): one silent host, probed alone. 254 hosts 64 at a time need 4 such waits.
  const t0 = performance.now();
  await tcpAnswers(`${SILENT_PREFIX}.2`, 502, SCAN_TIMEOUT_MS);
  const one = performance.now() - t0;
  figure('baseline: one silent host probed alone', one, 'ms');
  figure('empty /24 sweep / one silent probe (4 rounds of 64 is the floor)', result.ms / one, 'x');
  return ok;
}

async function loopbackSweep(): Promise<boolean> {
  const a = await startGatewaySimulator({ host: '127.0.0.7' });
  const b = await startGatewaySimulator({ host: '127.0.0.9', port: a.port });
  try {
    const result = await discoverGateways({ interfaces: loopbackInterfaces('127.0.0.1'), includeInternal: true, port: a.port, confirm });
    if (result.gateways.map((g) => g.host).join() !== '127.0.0.7,127.0.0.9') throw new Error(`unexpected gateways ${JSON.stringify(result.gateways)}`);
    const ok = figure('loopback /24 sweep with two gateways confirmed (hosts refuse at once)', result.ms, 'ms', { max: 1000 });
    // Baseline (same run): the same 254 hosts confirmed one at a time.
    const t0 = performance.now();
    for (let i = 1; i <= 254; i++) await confirm(`127.0.0.${i}`, a.port);
    const serial = performance.now() - t0;
    figure('baseline: the same hosts confirmed one at a time', serial, 'ms');
    figure('loopback sweep / one at a time', result.ms / serial, 'x');
    return ok;
  } finally {
    await a.close();
    await b.close();
  }
}

async function main(): Promise<number> {
  if (process.env.BENCH_NETNS === '1') {
    // Missed targets show in the figures; the exit code says only that the bench ran.
    await silentSweep();
    await loopbackSweep();
    return 0;
  }
  if (process.platform === 'linux') {
    const res = spawnSync('unshare', ['-rn', 'sh', '-c', `{ ${NAMESPACE_SETUP}; } || exit ${SETUP_FAILED}; exec "$0" --import tsx "$1"`, process.execPath, import.meta.filename], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_NETNS: '1' },
    });
    if (!res.error && res.status !== null && res.status !== SETUP_FAILED) return res.status;
    console.log(`(no private network namespace: ${res.error?.message ?? `exit ${res.status}`}; the silent-subnet figure is not measured)`);
  } else {
    console.log('(the silent-subnet figure needs a Linux network namespace; not measured here)');
  }
  await loopbackSweep();
  return 0;
}

process.exit(await main());
