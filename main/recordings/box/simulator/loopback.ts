import net from 'node:net';

/** Simulators only ever bind loopback (the project's network-safety rule). */
export function assertLoopback(host: string): void {
  const ok = host === 'localhost' || host === '::1' || (net.isIPv4(host) && host.startsWith('127.'));
  if (!ok) throw new Error(`simulators bind loopback only (127.0.0.0/8 or ::1), not ${host}`);
}
