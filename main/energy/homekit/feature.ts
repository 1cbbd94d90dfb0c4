import path from 'node:path';
import QRCode from 'qrcode';
import type { FeatureFactory } from '../features/feature.js';
import { HomekitBridge } from './bridge.js';

/**
 * The HomeKit bridge as an energy feature: published at start when enabled (accessory-bridge
 * settings apply at the next restart), values pushed on every live-state change, alert contact
 * sensors kept in step with the rules, and the pairing routes behind the passcode gate.
 */
export const createHomekitFeature: FeatureFactory = (ctx) => {
  const bridge = new HomekitBridge({
    dir: path.join(ctx.dataDir, 'energy', 'homekit'),
    logger: ctx.logger.child({ component: 'homekit' }),
    state: ctx.state,
    settings: ctx.settings,
  });

  const pairing = async () => {
    const uri = bridge.setupUri();
    return {
      ...bridge.status(),
      setupUri: uri,
      pinCode: ctx.settings().homekit.pin,
      qrSvg: await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'Q', margin: 1 }),
    };
  };

  return {
    name: 'homekit',
    start: () => bridge.start(),
    stop: () => bridge.stop(),
    reload: () => bridge.reload(),
    onSettings(prev, next) {
      if (JSON.stringify(prev.alerts) !== JSON.stringify(next.alerts)) bridge.syncAlerts();
    },
    routes(app) {
      app.get('/api/homehub/pairing', { preHandler: ctx.gate }, pairing);
      // Forgets every paired controller (new bridge identity); the Home app must pair again.
      app.post('/api/homehub/pairing/reset', { preHandler: ctx.gate }, async () => {
        await bridge.resetPairing();
        return pairing();
      });
    },
  };
};

