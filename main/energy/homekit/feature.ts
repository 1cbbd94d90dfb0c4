import path from 'node:path';
import type { EnergyFeatureModule, FeatureFactory } from '../feature.js';
import type { HomekitBridge } from './bridge.js';
import { homekitSection } from './settings.js';
import { writeHapItem } from './store-item.js';

/**
 * The HomeKit bridge as an energy feature: published at start when enabled (accessory-bridge
 * settings apply at the next restart), values pushed on every live-state change, alert contact
 * sensors kept in step with the rules, and the pairing routes behind the passcode gate.
 * hap-nodejs with its mDNS stack, and qrcode, load only when HomeKit is enabled at start or the
 * pairing page is opened: a service without HomeKit does not hold them (about 300 module files).
 */
export const createHomekitFeature: FeatureFactory<typeof homekitSection> = (ctx) => {
  let loaded: Promise<HomekitBridge> | null = null;
  const dir = path.join(ctx.dataDir, 'energy', 'homekit');
  const load = () =>
    (loaded ??= import('./bridge.js').then(
      ({ HomekitBridge }) =>
        new HomekitBridge({
          dir,
          logger: ctx.logger.child({ component: 'homekit' }),
          state: ctx.state,
          settings: ctx.settings,
          alertSensors: ctx.alertSensors,
        }),
    ));

  // An import replaced the identity: a running bridge re-reads it; one not loaded yet reads it when it starts.
  const reload = async () => {
    if (loaded) await (await loaded).reload();
    else if (ctx.settings().homekit.enabled) await (await load()).start();
  };

  const pairing = async () => {
    const bridge = await load();
    const { default: QRCode } = await import('qrcode');
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
    start: async () => {
      if (ctx.settings().homekit.enabled) await (await load()).start();
    },
    stop: async () => {
      if (loaded) await (await loaded).stop();
    },
    hapStore: {
      writeItem: (key, value) => writeHapItem(path.join(dir, 'persist'), key, value),
      reload,
    },
    // The alert sensors follow the rules (adding, renaming and removing only what changed).
    onSettings() {
      if (loaded) void loaded.then((bridge) => bridge.syncAlerts());
    },
    routes(app) {
      app.get('/api/homehub/pairing', { preHandler: ctx.gate }, pairing);
      // Forgets every paired controller (new bridge identity); the Home app must pair again.
      app.post('/api/homehub/pairing/reset', { preHandler: ctx.gate }, async () => {
        await (await load()).resetPairing();
        return pairing();
      });
    },
  };
};

/** The HomeKit bridge: its settings section and its feature. */
export const homekitFeature: EnergyFeatureModule<typeof homekitSection> = { name: 'homekit', settings: [homekitSection], create: createHomekitFeature };
