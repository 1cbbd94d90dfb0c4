import net from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on right now (for a child process or a fixed-port server in tests and benches). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}
