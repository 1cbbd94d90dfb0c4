import fs from 'node:fs';
import { writeFileAtomic } from '../../core/atomic-file.js';
import type { Clock } from '../../core/clock.js';
import { AppError, invalid } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { CONTROL_REGISTERS, EMS_WORK_MODE_NAMES, type ControlKey, type ControlValues } from '../gateway/control-registers.js';
import type { GatewayConnection } from '../gateway/connection.js';
import { PlantWriter, ReadBackMismatch } from '../gateway/plant-writer.js';
import type { LiveState } from '../live-state.js';
import type { AuditEntry, AuditLog, AuditWrite } from './audit-log.js';
import { describeMode, writesFor, type ModeRequest, type PlannedWrite } from './modes.js';
import type { ControlSettings } from './settings.js';

/** What the controller keeps across restarts (energy/control-state.json). */
interface Kept {
  mode: ModeRequest;
  since: number;
  /** The plant's own values of the registers this program changed, to put back on Automatic. */
  saved: ControlValues;
  /** The values this program wrote and expects to stay (the periodic check compares them). */
  expected: ControlValues;
  /** 30003 before remote EMS was turned on (9 = a user's custom mode, which the plant does not restore). */
  previousEmsMode: number | null;
  backedOff: { since: number; message: string } | null;
  /** When the writes of the last hour were made: the write budget counts across restarts (a restart loop cannot pass it). */
  writeTimes: number[];
}

export interface ControllerDeps {
  clock: Clock;
  logger: Logger;
  settings: () => ControlSettings;
  pollIntervalMs: () => number;
  /** Opens a new connection to the configured gateway (the outbound gate's LAN-device link). */
  connect: () => GatewayConnection;
  audit: AuditLog;
  stateFile: string;
  /** The price plan's step for a time (schedule mode); null: no plan (Automatic then). */
  planStep?: (at: number, state: LiveState) => { key: string; mode: ModeRequest; reason: string } | null;
}

export interface ModeResult {
  mode: ModeRequest['mode'];
  dryRun: boolean;
  message: string;
  writes: AuditWrite[];
}

const AUTOMATIC: ModeRequest = { mode: 'automatic' };
const HOUR = 3_600_000;

/**
 * The battery controller: puts the plant in the owner's mode through the guarded write path
 * (gateway/plant-writer.ts) and keeps to the safety rails of issue 44: nothing is written while
 * control is off or in a dry run, nor on a stale reading (and once the gateway answers again the
 * plant goes back to Automatic); only changed values are written, at most so many an hour; every
 * write is read back and checked again every so often, and a value someone else changed is
 * reported as "another controller changed …" and left alone; Automatic (and the kill switch) puts
 * remote control off and the saved values back. Every decision and write goes to the audit log.
 * Operations run one at a time (`idle()` resolves when the queue is empty).
 */
export class BatteryController {
  private kept: Kept;
  private queue: Promise<unknown> = Promise.resolve();
  private lastGood: number | null = null;
  private stale = false;
  private lastCheck = 0;
  private lastState: LiveState | null = null;
  private stepKey: string | null = null;
  private lastMessage = '';

  constructor(private readonly deps: ControllerDeps) {
    this.kept = this.load();
  }

  /** Resolves once every queued operation has finished. */
  async idle(): Promise<void> {
    let q: Promise<unknown>;
    do {
      q = this.queue;
      await q.catch(() => undefined);
    } while (q !== this.queue);
  }

  status() {
    const s = this.deps.settings();
    const now = this.deps.clock.now();
    return {
      enabled: s.enabled,
      dryRun: s.dryRun,
      mode: this.kept.mode,
      since: new Date(this.kept.since).toISOString(),
      description: describeMode(this.kept.mode),
      end: 'end' in this.kept.mode ? this.kept.mode.end : { kind: 'none' as const },
      stale: this.stale || !this.fresh(now),
      lastGoodReading: this.lastGood === null ? null : new Date(this.lastGood).toISOString(),
      backedOff: this.kept.backedOff ? { since: new Date(this.kept.backedOff.since).toISOString(), message: this.kept.backedOff.message } : null,
      writesLastHour: this.writesInLastHour(now),
      maxWritesPerHour: s.maxWritesPerHour,
      remoteControl: this.kept.expected.remoteEms === 1,
      message: this.lastMessage,
    };
  }

  /** The owner (or the plan, or a mode's end) picks a mode. Throws AppError when a rail refuses it. */
  setMode(req: ModeRequest, by: AuditEntry['by']): Promise<ModeResult> {
    return this.enqueue(() => this.apply(req, by));
  }

  /** Back to Automatic at once (no budget): remote control off, the saved values back. */
  kill(by: AuditEntry['by']): Promise<ModeResult> {
    return this.enqueue(() => this.restore(by, 'kill switch: back to Automatic at once'));
  }

  /** The current values of control registers, read from the plant now (in the queue, one connection). */
  read(keys: readonly ControlKey[]): Promise<ControlValues> {
    return this.enqueue(() => this.withWriter((w) => w.readControl(keys)));
  }

  /**
   * The owner's plant settings (the backup and cut-off SOCs): written through the same rails as a
   * mode (control on, a fresh reading, dry run, only on change, the write budget, read-back, the
   * audit log), but not a mode: they stay when the plant goes back to Automatic and are not watched.
   */
  writeSettings(values: ControlValues, by: AuditEntry['by'], reason: string): Promise<ModeResult> {
    return this.enqueue(async () => {
      const s = this.deps.settings();
      const now = this.deps.clock.now();
      if (!s.enabled) throw this.refuse(by, new AppError(409, 'control_off', 'Battery control is off: the owner turns it on in the settings first.'));
      if (!this.fresh(now)) throw this.refuse(by, new AppError(409, 'stale_reading', `No good reading from the gateway for more than ${this.staleLimit() / 1000} s: nothing is written until it answers again.`));
      const all = (Object.entries(values) as Array<[ControlKey, number]>).map(([key, value]) => ({ key, value, why: reason }));
      return this.withWriter(async (writer) => {
        const current = await writer.readControl(all.map((w) => w.key));
        const changes = all.filter((w) => current[w.key] !== w.value);
        if (s.dryRun) {
          const writes = changes.map((w) => ({ register: w.key, address: CONTROL_REGISTERS[w.key].address, value: w.value, before: current[w.key] ?? null, readBack: null }));
          this.lastMessage = `Dry run: nothing written. ${reason}`;
          this.log({ kind: 'dry-run', by, reason, writes });
          return { mode: this.kept.mode.mode, dryRun: true, message: this.lastMessage, writes };
        }
        if (this.writesInLastHour(now) + changes.length > s.maxWritesPerHour) {
          throw this.refuse(by, new AppError(429, 'write_budget', `Write budget: this needs ${changes.length} writes and ${this.writesInLastHour(now)} of at most ${s.maxWritesPerHour} an hour are used. Nothing was written; try again later.`));
        }
        const done: AuditWrite[] = [];
        await this.writeAll(writer, changes, current, done, by, reason);
        this.lastMessage = changes.length ? reason : `${reason} (the plant already had these values: nothing written)`;
        return { mode: this.kept.mode.mode, dryRun: false, message: this.lastMessage, writes: done };
      });
    });
  }

  /** Per poll (never blocks): freshness, the mode's end, the periodic check and the price plan's steps. */
  onPoll(state: LiveState, at: number): void {
    const s = this.deps.settings();
    const good = state.connected && state.lastUpdated === at;
    const limit = this.staleLimit();
    if (!good) {
      if (!this.stale && (this.lastGood === null || at - this.lastGood > limit)) this.markStale(at);
      return;
    }
    const gap = this.lastGood !== null && at - this.lastGood > limit;
    this.lastGood = at;
    this.lastState = state;
    if (this.stale || gap) {
      this.stale = false;
      if (this.kept.mode.mode !== 'automatic' || Object.keys(this.kept.saved).length) {
        void this.enqueue(() => this.restore('rail', 'the gateway answers again after readings stopped: back to Automatic')).catch(() => undefined);
      }
      return;
    }
    if (!s.enabled) {
      if (Object.keys(this.kept.saved).length || this.kept.mode.mode !== 'automatic') void this.enqueue(() => this.restore('rail', 'battery control was turned off')).catch(() => undefined);
      return;
    }
    if (this.kept.backedOff) return;
    const m = this.kept.mode;
    const soc = state.battery.soc;
    const end = 'end' in m ? m.end : null;
    const endNow =
      (end?.kind === 'time' && at >= Date.parse(end.at)) ||
      (end?.kind === 'soc' && soc !== null && (m.mode === 'discharge' ? soc <= end.soc : soc >= end.soc)) ||
      (m.mode === 'charge' && soc !== null && soc >= m.targetSoc) ||
      (m.mode === 'discharge' && soc !== null && soc <= m.floorSoc);
    if (endNow) {
      void this.enqueue(() => this.apply(AUTOMATIC, 'end')).catch(() => undefined);
      return;
    }
    if (m.mode === 'schedule' && this.deps.planStep) {
      const step = this.deps.planStep(at, state);
      const key = step?.key ?? 'none';
      if (key !== this.stepKey) {
        this.stepKey = key;
        void this.enqueue(() => this.applyStep(step?.mode ?? AUTOMATIC, step?.reason ?? 'no price plan for now: the plant runs on its own')).catch(() => undefined);
        return;
      }
    }
    if (!s.dryRun && Object.keys(this.kept.expected).length && at - this.lastCheck >= s.checkEverySeconds * 1000) {
      this.lastCheck = at;
      void this.enqueue(() => this.check()).catch(() => undefined);
    }
  }

  // ---- operations (run one at a time) ----

  private async apply(req: ModeRequest, by: AuditEntry['by']): Promise<ModeResult> {
    const s = this.deps.settings();
    if (!s.enabled) throw this.refuse(by, new AppError(409, 'control_off', 'Battery control is off: the owner turns it on in the settings first.'));
    if (req.mode === 'automatic') return this.restore(by, by === 'end' ? `the mode ended (${describeMode(this.kept.mode)})` : 'Automatic chosen');
    if (req.mode === 'charge' && req.powerW > s.maxChargeW) throw invalid('powerW', `must not exceed your charging bound (${s.maxChargeW} W)`);
    if (req.mode === 'discharge' && req.powerW > s.maxDischargeW) throw invalid('powerW', `must not exceed your discharging bound (${s.maxDischargeW} W)`);
    if (req.mode === 'discharge' && req.floorSoc < s.minSoc) throw invalid('floorSoc', `must not be below your lowest charge (${s.minSoc} %)`);
    if (req.mode === 'schedule') {
      this.kept = { ...this.kept, mode: req, since: this.deps.clock.now(), backedOff: null };
      this.stepKey = null;
      this.save();
      this.log({ kind: 'decision', by, reason: describeMode(req) });
      return { mode: req.mode, dryRun: s.dryRun, message: describeMode(req), writes: [] };
    }
    return this.enter(req, by, describeMode(req));
  }

  /** A price-plan step: the plant takes the step's mode while the schedule stays the owner's mode. */
  private async applyStep(step: ModeRequest, reason: string): Promise<ModeResult> {
    const schedule = this.kept.mode;
    const result = step.mode === 'automatic' ? await this.restore('plan', reason) : await this.enter(step, 'plan', reason);
    this.kept = { ...this.kept, mode: schedule };
    this.save();
    return result;
  }

  /** Writes the mode's registers (only those that change), after the freshness and budget rails. */
  private async enter(req: ModeRequest, by: AuditEntry['by'], reason: string): Promise<ModeResult> {
    const s = this.deps.settings();
    const now = this.deps.clock.now();
    if (!this.fresh(now)) throw this.refuse(by, new AppError(409, 'stale_reading', `No good reading from the gateway for more than ${this.staleLimit() / 1000} s: nothing is written until it answers again.`));
    const planned = writesFor(req);
    // Registers an earlier mode changed and this one does not: their own values go back.
    const plannedKeys = new Set(planned.map((w) => w.key));
    const restores: PlannedWrite[] = (Object.entries(this.kept.saved) as Array<[ControlKey, number]>)
      .filter(([k]) => !plannedKeys.has(k) && k !== 'remoteEms')
      .map(([key, value]) => ({ key, value, why: 'put back: this mode does not use it' }));
    const all = [...restores, ...planned];
    if (s.dryRun) return this.dryRun(req, by, reason, all);
    return this.withWriter(async (writer) => {
      const current = await writer.readControl(all.map((w) => w.key));
      const changes = all.filter((w) => current[w.key] !== w.value);
      if (this.writesInLastHour(now) + changes.length > s.maxWritesPerHour) {
        throw this.refuse(by, new AppError(429, 'write_budget', `Write budget: this needs ${changes.length} writes and ${this.writesInLastHour(now)} of at most ${s.maxWritesPerHour} an hour are used. Nothing was written; try again later.`));
      }
      const turningRemoteOn = changes.some((w) => w.key === 'remoteEms' && w.value === 1);
      const previousEmsMode = turningRemoteOn ? await writer.emsWorkMode() : this.kept.previousEmsMode;
      const saved = { ...this.kept.saved };
      const expected = { ...this.kept.expected };
      for (const w of all) {
        if (saved[w.key] === undefined && w.why !== 'put back: this mode does not use it') saved[w.key] = current[w.key];
      }
      for (const r of restores) {
        delete saved[r.key];
        delete expected[r.key];
      }
      for (const w of planned) expected[w.key] = w.value;
      const done: AuditWrite[] = [];
      this.kept = { ...this.kept, mode: req, since: now, saved, expected, previousEmsMode, backedOff: null };
      this.save();
      await this.writeAll(writer, changes, current, done, by, reason);
      this.lastCheck = this.deps.clock.now();
      this.lastMessage = changes.length ? reason : `${reason} (the plant already had these values: nothing written)`;
      return { mode: req.mode, dryRun: false, message: this.lastMessage, writes: done };
    });
  }

  private async writeAll(writer: PlantWriter, changes: PlannedWrite[], current: ControlValues, done: AuditWrite[], by: AuditEntry['by'], reason: string): Promise<void> {
    try {
      for (const w of changes) {
        // Counted and saved before it is sent: a crash right after the write still counts it.
        const at = this.deps.clock.now();
        this.kept = { ...this.kept, writeTimes: [...this.kept.writeTimes.filter((t) => at - t < HOUR), at] };
        this.save();
        const r = await writer.write(w.key, w.value);
        done.push({ register: w.key, address: r.address, value: w.value, before: current[w.key] ?? null, readBack: r.readBack });
      }
    } catch (err) {
      if (done.length) this.log({ kind: 'write', by, reason, writes: done });
      if (err instanceof ReadBackMismatch) {
        const r = err.result;
        done.push({ register: r.key, address: r.address, value: r.value, before: current[r.key] ?? null, readBack: r.readBack });
        this.backOff(`Another controller changed ${label(r.key)} (${r.address}) right after it was written: ${r.value} written, ${r.readBack} read back. Backing off: nothing more is written until you choose a mode.`);
        throw new AppError(409, 'another_controller', this.kept.backedOff!.message);
      }
      this.log({ kind: 'error', by, reason: `write failed: ${(err as Error).message}` });
      if (err instanceof AppError) throw err;
      throw new AppError(502, 'gateway_write_failed', `The gateway did not take the write: ${(err as Error).message}`);
    }
    if (done.length) this.log({ kind: 'write', by, reason, writes: done });
    else this.log({ kind: 'decision', by, reason: `${reason} (already so: nothing written)` });
  }

  private async dryRun(req: ModeRequest, by: AuditEntry['by'], reason: string, all: PlannedWrite[]): Promise<ModeResult> {
    let current: ControlValues = {};
    try {
      current = await this.withWriter((w) => w.readControl(all.map((x) => x.key)));
    } catch {
      // the gateway away: the would-be writes are shown without the values they replace
    }
    const writes = all.filter((w) => current[w.key] !== w.value).map((w) => ({ register: w.key, address: CONTROL_REGISTERS[w.key].address, value: w.value, before: current[w.key] ?? null, readBack: null }));
    this.kept = { ...this.kept, mode: req, since: this.deps.clock.now(), backedOff: null };
    this.save();
    this.lastMessage = `Dry run: nothing written. ${reason}`;
    this.log({ kind: 'dry-run', by, reason, writes });
    return { mode: req.mode, dryRun: true, message: this.lastMessage, writes };
  }

  /** Remote EMS off and the saved values back; says where the plant's previous mode is not restored. */
  private async restore(by: AuditEntry['by'], reason: string): Promise<ModeResult> {
    const s = this.deps.settings();
    const now = this.deps.clock.now();
    const saved = this.kept.saved;
    const previous = this.kept.previousEmsMode;
    if (!Object.keys(saved).length || s.dryRun) {
      this.kept = { ...this.kept, mode: AUTOMATIC, since: now, saved: s.dryRun ? saved : {}, expected: s.dryRun ? this.kept.expected : {}, previousEmsMode: s.dryRun ? previous : null, backedOff: null };
      this.save();
      this.lastMessage = `${s.dryRun && Object.keys(saved).length ? 'Dry run: nothing written. ' : ''}Automatic: the plant runs on its own (${reason}).`;
      this.log({ kind: 'decision', by, reason: this.lastMessage });
      return { mode: 'automatic', dryRun: s.dryRun, message: this.lastMessage, writes: [] };
    }
    if (!this.fresh(now)) {
      // Nothing can be written now: Automatic is written once the gateway answers again.
      this.kept = { ...this.kept, mode: AUTOMATIC, since: now, backedOff: null };
      this.save();
      this.lastMessage = 'The gateway does not answer: Automatic is written as soon as it does.';
      this.log({ kind: 'refused', by, reason: `${reason}: ${this.lastMessage}` });
      return { mode: 'automatic', dryRun: false, message: this.lastMessage, writes: [] };
    }
    return this.withWriter(async (writer) => {
      // Remote EMS off first; the control mode acts only in remote EMS, so it is left as it is (one write fewer).
      const order = (Object.keys(saved) as ControlKey[]).filter((k) => k !== 'controlMode').sort((a, b) => (a === 'remoteEms' ? -1 : b === 'remoteEms' ? 1 : 0));
      const restores = order.map((key) => ({ key, value: key === 'remoteEms' ? 0 : saved[key]!, why: 'put back' }));
      const current = await writer.readControl(restores.map((r) => r.key));
      const changes = restores.filter((r) => current[r.key] !== r.value);
      this.kept = { ...this.kept, mode: AUTOMATIC, since: now, saved: {}, expected: {}, previousEmsMode: null, backedOff: null };
      this.save();
      const done: AuditWrite[] = [];
      await this.writeAll(writer, changes, current, done, by, `${reason}: remote control off, your values put back`);
      let message = `Automatic: remote control is off and your previous limits are back (${reason}).`;
      if (previous !== null) {
        const nowMode = await writer.emsWorkMode();
        if (nowMode !== previous) {
          message += ` The plant did not go back to its previous mode (${EMS_WORK_MODE_NAMES[previous] ?? previous}); it runs ${EMS_WORK_MODE_NAMES[nowMode] ?? nowMode}. The protocol cannot restore it: choose it again in the vendor's app.`;
          this.log({ kind: 'decision', by, reason: message });
        }
      }
      this.lastMessage = message;
      return { mode: 'automatic', dryRun: false, message, writes: done };
    });
  }

  /** Reads the written registers back; a changed one is someone else's doing: report it and back off. */
  private async check(): Promise<void> {
    if (this.kept.backedOff || !this.fresh(this.deps.clock.now())) return;
    const expected = this.kept.expected;
    const keys = Object.keys(expected) as ControlKey[];
    if (!keys.length) return;
    const actual = await this.withWriter((w) => w.readControl(keys));
    const changed = keys.filter((k) => actual[k] !== expected[k]);
    if (!changed.length) return;
    const what = changed.map((k) => `${label(k)} (${CONTROL_REGISTERS[k].address}) from ${expected[k]} to ${actual[k]}`).join(', ');
    this.backOff(`Another controller changed ${what}. Backing off: nothing more is written until you choose a mode.`);
  }

  // ---- rails and plumbing ----

  private backOff(message: string): void {
    this.kept = { ...this.kept, expected: {}, backedOff: { since: this.deps.clock.now(), message } };
    this.save();
    this.lastMessage = message;
    this.log({ kind: 'other-controller', by: 'rail', reason: message });
  }

  private markStale(at: number): void {
    this.stale = true;
    const last = this.lastGood === null ? 'none yet' : new Date(this.lastGood).toISOString();
    this.log({ kind: 'stale', by: 'rail', reason: `No good reading for more than ${this.staleLimit() / 1000} s (last ${last}): writing stopped; back to Automatic once the gateway answers.` });
    void at;
  }

  private staleLimit(): number {
    return this.deps.settings().staleAfterPolls * this.deps.pollIntervalMs();
  }

  private fresh(now: number): boolean {
    return !this.stale && this.lastGood !== null && now - this.lastGood <= this.staleLimit();
  }

  private writesInLastHour(now: number): number {
    return this.kept.writeTimes.filter((t) => now - t < HOUR).length;
  }

  private refuse(by: AuditEntry['by'], err: AppError): AppError {
    this.log({ kind: 'refused', by, reason: err.message });
    return err;
  }

  private async withWriter<T>(fn: (w: PlantWriter) => Promise<T>): Promise<T> {
    const conn = this.deps.connect();
    try {
      await conn.connect();
      if (!conn.write) throw new AppError(502, 'gateway_write_failed', 'This gateway link cannot write');
      const s = this.deps.settings();
      const writer = new PlantWriter({ read: conn.read, write: conn.write }, () => ({ maxChargeW: s.maxChargeW, maxDischargeW: s.maxDischargeW, minSoc: s.minSoc }));
      return await fn(writer);
    } finally {
      await conn.close();
    }
  }

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const p = this.queue.then(op, op);
    this.queue = p.catch((err: unknown) => {
      if (!(err instanceof AppError)) this.deps.logger.error({ err }, 'battery control operation failed');
    });
    return p;
  }

  private log(e: Omit<AuditEntry, 'at'>): void {
    try {
      this.deps.audit.append({ at: new Date(this.deps.clock.now()).toISOString(), ...e });
    } catch (err) {
      this.deps.logger.error({ err }, 'control audit log not written');
    }
  }

  private load(): Kept {
    const now = this.deps.clock.now();
    const fallback: Kept = { mode: AUTOMATIC, since: now, saved: {}, expected: {}, previousEmsMode: null, backedOff: null, writeTimes: [] };
    try {
      const read = { ...fallback, ...(JSON.parse(fs.readFileSync(this.deps.stateFile, 'utf8')) as Partial<Kept>) };
      // Only the last hour's writes count; a file without them (or with junk) counts none.
      const writeTimes = Array.isArray(read.writeTimes) ? read.writeTimes.filter((t) => typeof t === 'number' && now - t < HOUR) : [];
      return { ...read, writeTimes };
    } catch {
      return fallback;
    }
  }

  private save(): void {
    try {
      writeFileAtomic(this.deps.stateFile, JSON.stringify(this.kept, null, 2));
    } catch (err) {
      this.deps.logger.error({ err }, 'control state not saved');
    }
  }
}

function label(key: ControlKey): string {
  const names: Record<ControlKey, string> = {
    remoteEms: 'remote EMS enable',
    controlMode: 'remote EMS control mode',
    chargeLimitW: 'the charging limit',
    dischargeLimitW: 'the discharging limit',
    pvLimitW: 'the PV limit',
    exportLimitW: 'the export limit',
    importLimitW: 'the import limit',
    backupSoc: 'the backup SOC',
    chargeCutoffSoc: 'the charge cut-off SOC',
    dischargeCutoffSoc: 'the discharge cut-off SOC',
  };
  return names[key];
}
