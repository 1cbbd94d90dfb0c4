import type dgram from 'node:dgram';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a simulated media server listens on: its HTTP API and its UDP discovery socket, both bound to
 * one loopback host (the Plex fake's GDM, the Jellyfin/Emby fake's discovery on 7359's protocol).
 */
export function fakeListeners(server: http.Server, udp: dgram.Socket, host: string, httpPort = 0) {
  const ports = { http: 0, udp: 0 };
  return {
    ports,
    async start(): Promise<void> {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(httpPort, host, () => resolve());
      });
      ports.http = (server.address() as AddressInfo).port;
      await new Promise<void>((resolve, reject) => {
        udp.once('error', reject);
        udp.bind(0, host, () => resolve());
      });
      ports.udp = (udp.address() as AddressInfo).port;
    },
    async stop(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    },
  };
}
