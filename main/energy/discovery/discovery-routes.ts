import dns from 'node:dns/promises';
import net from 'node:net';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { invalid } from '../../core/errors.js';
import { refusalFor } from '../../core/outbound.js';
import { parseInput } from '../../core/validate.js';
import type { ConnectionFactory } from '../gateway/connection.js';
import { PROBE_RATE, registerProbeRoutes } from '../security/probe-limit.js';
import type { EnergySettings } from '../settings/energy-settings.js';
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
  /** Resolves a host name to its addresses (default: the system resolver). */
  lookup?: (host: string) => Promise<string[]>;
}

/** Gateway tests per client and minute: enough for a user retyping an address, too few for a scan. */
export const GATEWAY_TEST_RATE = PROBE_RATE;

const systemLookup = async (host: string) => (await dns.lookup(host, { all: true })).map((a) => a.address);

/**
 * The address to probe for `host`: an IP literal as is, a name resolved once (the probe then uses
 * that address, so the name cannot re-resolve elsewhere). Every address must be private, loopback
 * or link-local: the test must not become a port scanner of the internet.
 */
async function lanTarget(host: string, lookup: (host: string) => Promise<string[]>): Promise<string> {
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  let addresses: string[];
  if (net.isIP(literal)) addresses = [literal];
  else {
    try {
      addresses = await lookup(host);
    } catch {
      throw invalid('host', `cannot resolve "${host}" on this network`);
    }
  }
  if (addresses.length === 0) throw invalid('host', `cannot resolve "${host}" on this network`);
  // The outbound gate's LAN-device policy (main/core/outbound.ts), on every address the name has.
  if (addresses.some((a) => refusalFor('lan-device', a) !== null)) {
    throw invalid('host', 'must be an address on your home network (private, loopback or link-local), not an internet address');
  }
  return addresses[0]!;
}

/** POST /api/test/gateway (passcode-gated, rate-limited, LAN targets only) and POST /api/discover/gateway (gated, rate-limited). */
export function registerDiscoveryRoutes(app: FastifyInstance, deps: DiscoveryRoutesDeps): void {
  let running: Promise<DiscoveryResult> | null = null;

  registerProbeRoutes(app, 'gateway tests', (scope) => {
    scope.post('/api/test/gateway', { preHandler: deps.gate, config: { rateLimit: GATEWAY_TEST_RATE } }, async (req) => {
      const body = parseInput(testBody, req.body ?? {}, 'body');
      const target = await lanTarget(body.host, deps.lookup ?? systemLookup);
      const g = deps.settings().gateway;
      const result = await testGateway(
        {
          host: target,
          port: body.port ?? g.port,
          timeoutMs: Math.min(g.timeoutMs, 1000),
          inverterUnits: { from: g.inverterUnitFrom, to: g.inverterUnitTo },
          budgetMs: 5000,
        },
        deps.connect,
      );
      return { ...result, host: body.host };
    });

    scope.post('/api/discover/gateway', { preHandler: deps.gate, config: { rateLimit: PROBE_RATE } }, async (req) => {
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
  });
}
