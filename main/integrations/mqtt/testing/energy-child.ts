/**
 * An energy bridge in a process of its own, for the crash test: a gateway simulator and the service
 * with MQTT on. Usage: node --import tsx energy-child.ts <dataDir> <brokerUrl>. Prints "ready" once
 * listening; runs until killed.
 */
import { silentLogger } from '../../../core/logger.js';
import { createEnergyService } from '../../../energy/index.js';
import { startGatewaySimulator } from '../../../energy/simulator/gateway-simulator.js';

const [dataDir, brokerUrl] = process.argv.slice(2);
if (!dataDir || !brokerUrl) throw new Error('usage: energy-child.ts <dataDir> <brokerUrl>');
const sim = await startGatewaySimulator({ firmware: 'V2.9' });
const service = createEnergyService(
  { dataDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(sim.port), POLL_INTERVAL_MS: '1000', MQTT_URL: brokerUrl } },
  { logger: silentLogger },
);
await service.start();
process.stdout.write(`ready ${service.url}\n`);
