import path from 'node:path';
import { Accessory, AccessoryInfo, Bridge, uuid } from 'hap-nodejs';
import type { Logger } from '../../core/logger.js';
import type { AlertSensor } from '../feature.js';
import type { LiveStateStore } from '../live-state.js';
import type { HomekitSettings } from './accessories.js';
import { alertAccessory, batteryAccessory, powerAccessories, type BridgedAccessory, type Readings } from './accessories.js';
import { bindProblem, loopbackOnly, narrowServerBind } from './bind.js';
import { loadIdentity, newIdentity, saveIdentity, type BridgeIdentity } from './identity.js';
import { setupUri } from './setup-uri.js';
import { holdHapStorage, useHapStorage } from './storage.js';

export interface HomekitBridgeOptions {
  /** Folder for the identity file and hap-nodejs' store (pairings): `<data>/energy/homekit`. */
  dir: string;
  logger: Logger;
  state: LiveStateStore;
  settings: () => HomekitSettings;
  /** The alert rules shown as contact sensors (none when absent). */
  alertSensors?: () => readonly AlertSensor[];
  /** How long to wait for the HAP server to listen. */
  listenTimeoutMs?: number;
  /**
   * Waits before each new try after a start that failed (a taken port, a busy machine), the last one
   * repeating: the bridge comes up by itself once the cause is gone. Default 5 s, 15 s, then 60 s.
   */
  retryDelaysMs?: readonly number[];
}

const RETRY_DELAYS_MS = [5_000, 15_000, 60_000] as const;

export interface BridgeStatus {
  enabled: boolean;
  running: boolean;
  port: number | null;
  bind: string[];
  paired: boolean;
  error: string | null;
}

/** Categories.BRIDGE (a const enum in hap-nodejs, so spelled out). */
export const BRIDGE_CATEGORY = 2;

/** The PIN as it may appear in logs. */
export const maskPin = (pin: string) => pin.replace(/\d/g, '*');

/**
 * The HomeKit bridge: one hap-nodejs Bridge with the battery, the power flows and one contact
 * sensor per alert rule routed to the Home app. Start publishes (reading the accessory-bridge
 * settings once: changing them needs a restart), stop unpublishes (pairings kept); only
 * `resetPairing` forgets the controllers, by retiring the identity.
 */
export class HomekitBridge {
  private bridge: Bridge | null = null;
  private accessories: BridgedAccessory[] = [];
  private alerts = new Map<string, BridgedAccessory>();
  private identity: BridgeIdentity;
  private listeningPort: number | null = null;
  private lastError: string | null = null;
  private unsubscribe: (() => void) | null = null;
  private releaseStore: (() => void) | null = null;
  private retry: { timer: NodeJS.Timeout | null; failures: number } = { timer: null, failures: 0 };
  private readonly readings: Readings;
  private readonly identityFile: string;

  constructor(private readonly opts: HomekitBridgeOptions) {
    this.identityFile = path.join(opts.dir, 'identity.json');
    this.identity = loadIdentity(this.identityFile);
    this.readings = { state: () => opts.state.get(), settings: opts.settings };
  }

  get running(): boolean {
    return this.bridge !== null;
  }

  /** The port the bridge listens on while running. */
  get port(): number | null {
    return this.listeningPort;
  }

  get username(): string {
    return this.identity.username;
  }

  /** Whether any controller is paired (read from the store when the bridge is not running). */
  get paired(): boolean {
    const info = this.bridge?._accessoryInfo ?? (this.storeReady() ? AccessoryInfo.load(this.identity.username) : null);
    return info?.paired() ?? false;
  }

  status(): BridgeStatus {
    const s = this.opts.settings().homekit;
    return { enabled: s.enabled, running: this.running, port: this.listeningPort, bind: s.bind, paired: this.paired, error: this.lastError };
  }

  setupUri(): string {
    return setupUri(this.opts.settings().homekit.pin, BRIDGE_CATEGORY, this.identity.setupId);
  }

  private storeReady(): boolean {
    try {
      useHapStorage(path.join(this.opts.dir, 'persist'));
      return true;
    } catch {
      return false;
    }
  }

  async start(): Promise<void> {
    if (this.retry.timer) clearTimeout(this.retry.timer);
    this.retry.timer = null;
    if (this.bridge) return;
    const s = this.opts.settings().homekit;
    if (!s.enabled) return;
    const log = this.opts.logger;
    try {
      const problem = bindProblem(s.bind);
      if (problem) throw new Error(problem);
      this.releaseStore = holdHapStorage(path.join(this.opts.dir, 'persist'));
      narrowServerBind();
      const id = this.identity.username;
      const bridge = new Bridge(s.bridgeName, uuid.generate(`energy-bridge:${id}`));
      this.accessories = [batteryAccessory(id, this.readings), ...powerAccessories(id, this.readings)];
      bridge.addBridgedAccessories(this.accessories.map((a) => a.accessory));
      this.alerts = new Map();
      this.syncAlerts(bridge);
      await this.publish(bridge, s);
      this.bridge = bridge;
      this.lastError = null;
      this.update();
      this.unsubscribe = this.opts.state.subscribe(() => this.update());
      log.info({ port: this.listeningPort, bind: s.bind.length ? s.bind : 'all interfaces', loopbackOnly: loopbackOnly(s.bind), username: id, pin: maskPin(s.pin), paired: this.paired }, 'HomeKit bridge published');
    } catch (err) {
      this.releaseStore?.();
      this.releaseStore = null;
      this.lastError = (err as Error).message;
      const delays = this.opts.retryDelaysMs ?? RETRY_DELAYS_MS;
      const inMs = delays[Math.min(this.retry.failures, delays.length - 1)]!;
      this.retry.failures++;
      log.error({ err: this.lastError, port: s.port, retryInMs: inMs }, 'HomeKit bridge could not start');
      this.retry.timer = setTimeout(() => {
        this.retry.timer = null;
        void this.start();
      }, inMs);
      this.retry.timer.unref();
      return;
    }
    this.retry.failures = 0;
  }

  private async publish(bridge: Bridge, s: HomekitSettings['homekit']): Promise<void> {
    const timeoutMs = this.opts.listenTimeoutMs ?? 10_000;
    let onError: (err: Error) => void = () => undefined;
    const listening = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`HomeKit bridge did not listen within ${timeoutMs} ms`)), timeoutMs);
      bridge.once('listening', (port: number) => {
        clearTimeout(timer);
        resolve(port);
      });
      onError = (err) => {
        clearTimeout(timer);
        const code = (err as NodeJS.ErrnoException).code;
        reject(new Error(code === 'EADDRINUSE' ? `HomeKit port ${s.port} is in use (homekit.port / HOMEKIT_PORT)` : `HomeKit server: ${err.message}`));
      };
    });
    // Not awaited yet: with the ciao advertiser, publish creates the HAP server and calls listen before
    // its first await, so the error handler below is on the socket before a taken port can report.
    const published = bridge.publish({
      username: this.identity.username,
      pincode: s.pin,
      port: s.port,
      category: BRIDGE_CATEGORY as never,
      setupID: this.identity.setupId,
      advertiser: 'ciao' as never, // MDNSAdvertiser.CIAO: @homebridge/ciao, restricted to `bind`
      ...(s.bind.length ? { bind: s.bind } : {}),
    });
    // hap-nodejs leaves the listening socket without an error handler: a taken port would crash the process.
    const tcp = (bridge._server as unknown as { httpServer?: { tcpServer?: import('node:net').Server } } | undefined)?.httpServer?.tcpServer;
    tcp?.on('error', (err) => onError(err));
    try {
      await published;
      this.listeningPort = await listening;
    } catch (err) {
      await bridge.unpublish().catch(() => undefined);
      throw err;
    }
  }

  /** Adds, renames and removes the alert contact sensors to match the rules routed to the Home app. */
  syncAlerts(bridge: Bridge | null = this.bridge): void {
    if (!bridge) return;
    const rules = this.opts.alertSensors?.() ?? [];
    const wanted = new Set(rules.map((r) => r.id));
    for (const [ruleId, acc] of this.alerts) {
      if (!wanted.has(ruleId)) {
        bridge.removeBridgedAccessory(acc.accessory);
        this.alerts.delete(ruleId);
      }
    }
    const added: Accessory[] = [];
    for (const rule of rules) {
      const existing = this.alerts.get(rule.id);
      if (existing && existing.accessory.displayName === rule.name) continue;
      if (existing) bridge.removeBridgedAccessory(existing.accessory);
      const acc = alertAccessory(this.identity.username, rule, this.readings);
      this.alerts.set(rule.id, acc);
      added.push(acc.accessory);
    }
    if (added.length) bridge.addBridgedAccessories(added);
  }

  private update(): void {
    const state = this.opts.state.get();
    for (const a of [...this.accessories, ...this.alerts.values()]) {
      try {
        a.update(state);
      } catch (err) {
        this.opts.logger.warn({ err: (err as Error).message, accessory: a.accessory.displayName }, 'HomeKit update failed');
      }
    }
  }

  /** Unpublishes (mDNS goodbye, server closed). Pairings stay in the store. */
  async stop(): Promise<void> {
    if (this.retry.timer) clearTimeout(this.retry.timer);
    this.retry = { timer: null, failures: 0 };
    this.unsubscribe?.();
    this.unsubscribe = null;
    const bridge = this.bridge;
    this.bridge = null;
    this.listeningPort = null;
    if (bridge) await bridge.unpublish();
    this.releaseStore?.();
    this.releaseStore = null;
  }

  /**
   * Re-reads the identity file and starts again with the current settings (an import replaced the
   * identity and its store item): controllers paired with that identity are let in at once.
   */
  async reload(): Promise<void> {
    await this.stop();
    this.identity = loadIdentity(this.identityFile);
    this.opts.logger.info({ username: this.identity.username }, 'HomeKit bridge identity reloaded');
    await this.start();
  }

  /** Forgets every paired controller: a new identity (id, setup id) replaces the old, whose store is removed. */
  async resetPairing(): Promise<void> {
    const wasRunning = this.running;
    await this.stop();
    if (this.storeReady()) Accessory.cleanupAccessoryData(this.identity.username);
    this.identity = saveIdentity(this.identityFile, newIdentity());
    this.opts.logger.info({ username: this.identity.username }, 'HomeKit pairing reset: new bridge identity');
    if (wasRunning) await this.start();
  }
}
