import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../core/validate.js';
import type { ConnectionFactory } from '../gateway/connection.js';
import type { EnergySettings } from '../settings.js';
import { confirmGateway, testGateway } from './gateway-probe.js';
import { discoverGateways, type DiscoveryResult, type InterfaceList } from './lan-scan.js';

const testBody = z
  .object({
    host: z.string().trim().min(1, 'is required').max(253),
    port: z.number().int().min(1).max(65535).optional(),
  })
  .strict();

const discoverBody = z.object({}).strict();

export interface DiscoveryRoutesDeps {
  /** The passcode gate (security.requireSession). */
  gate: preHandlerAsyncHookHandler;
  connect: ConnectionFactory;
  settings: () => EnergySettings;
  /** The interface list to derive /24 networks from (os.networkInterfaces in production). */
  interfaces: () => InterfaceList;
  /** Modbus port probed by the scan (502). */
  port: number;
  /** Scan internal interfaces too; only honoured for an injected interface list (tests, demo). */
  includeInternal: boolean;
}

/** POST /api/test/gateway and POST /api/discover/gateway. */
export function registerDiscoveryRoutes(app: FastifyInstance, deps: DiscoveryRoutesDeps): void {
  let running: Promise<DiscoveryResult> | null = null;

  app.post('/api/test/gateway', { preHandler: deps.gate }, async (req) => {
    const body = parseInput(testBody, req.body ?? {}, 'body');
    const g = deps.settings().gateway;
    return testGateway(
      {
        host: body.host,
        port: body.port ?? g.port,
        timeoutMs: Math.min(g.timeoutMs, 1000),
        inverterUnits: { from: g.inverterUnitFrom, to: g.inverterUnitTo },
        budgetMs: 5000,
      },
      deps.connect,
    );
  });

  app.post('/api/discover/gateway', { preHandler: deps.gate }, async (req) => {
    parseInput(discoverBody, req.body ?? {}, 'body');
    // One scan at a time: a second request while one runs shares its result.
    running ??= discoverGateways({
      interfaces: deps.interfaces(),
      port: deps.port,
      includeInternal: deps.includeInternal,
      confirm: (host, port) => confirmGateway(host, port, deps.connect),
    }).finally(() => {
      running = null;
    });
    return running;
  });
}
