import type { Outbound } from '../../core/outbound.js';
import { createModbusConnection, type ConnectionFactory } from './connection.js';

/**
 * The Modbus connections the bridge opens to the gateway (the poller's and the LAN scan's): the
 * gateway is a LAN device, so its host name is resolved and checked by the outbound gate
 * (main/core/outbound.ts) before a socket opens.
 */
export function gatewayLink(outbound: Outbound, connect: ConnectionFactory = createModbusConnection): ConnectionFactory {
  return (o) => connect({ ...o, resolve: async (host) => (await outbound.checkHost({ purpose: 'lan-device' }, host)).address });
}
