import type { preHandlerAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { FeatureModule, RunningFeature } from '../core/feature.js';
import type { Logger } from '../core/logger.js';
import type { Outbound } from '../core/outbound.js';
import type { ConnectionFactory } from './gateway/connection.js';
import type { HistoryReplay } from './history/replay.js';
import type { LiveState, LiveStateStore } from './live-state.js';
import type { PriceBook } from './prices/price-book.js';
import type { EnergyCore, SectionValues } from './core-settings.js';
import type { CoreSnapshot } from './live/snapshot-schema.js';
import type { EntityDef } from '../integrations/mqtt/discovery.js';
import type { SettingsSection } from './settings-section.js';

/**
 * A feature's blocks of the curated snapshot: top-level key -> schema (optional when the block may
 * be absent). The published schema (docs/snapshot.schema.json) is the core's readings plus these,
 * composed in features.ts.
 */
export type SnapshotShape = Record<string, z.ZodType>;

/** The values a block shape gives the snapshot. */
export type BlockOf<Shape extends SnapshotShape> = z.output<z.ZodObject<Shape>>;

/**
 * A feature's fields of the live state (`GET /api/state`, the SSE state event): name -> schema, whose
 * default is the field's value before the feature publishes one (none: absent until then). The live
 * state is the core's fields (live-state.ts) plus these, composed in published.ts.
 */
export type LiveShape = Record<string, z.ZodType>;

/** The values a live-field shape gives the live state. */
export type LiveOf<Shape extends LiveShape> = z.output<z.ZodObject<Shape>>;

/** A live state read for a feature's own fields (absent in a state the service did not compose). */
export const liveOf = <L>(state: object): Partial<L> => state as Partial<L>;

/**
 * The snapshot as a feature that reads all of it sees it (MQTT, metrics): the core's readings and
 * whatever blocks the features add, each read by the entity or gauge its feature declared.
 */
export type SnapshotView = Readonly<CoreSnapshot> & { readonly [block: string]: unknown };

/** A Home Assistant entity read from the snapshot (MQTT). */
export interface SnapshotEntity<S = SnapshotView> extends EntityDef {
  /** Its value in the state JSON; absent for a button (it has none). */
  value?: (s: S) => unknown;
  /** The unit (and device class) when it follows the settings (temperature unit, currency). */
  unitFrom?: (units: CoreSnapshot['units']) => Pick<EntityDef, 'unit' | 'deviceClass'>;
}

/** A Prometheus gauge read from the snapshot at scrape time (`hlb_energy_<name>`); no value: the series is left out. */
export interface SnapshotGauge<S = SnapshotView> {
  name: string;
  help: string;
  value: (s: S) => number | null | undefined;
  /** Labels of the one series (e.g. the currency of a price); the names are fixed. */
  labels?: { names: readonly string[]; of: (s: S) => Record<string, string> };
}

/** Declares entities that read a feature's own block (typed against it); the list takes them as reading the whole snapshot. */
export const snapshotEntities = <B>(entities: ReadonlyArray<SnapshotEntity<Readonly<CoreSnapshot> & B>>): readonly SnapshotEntity[] => entities as unknown as readonly SnapshotEntity[];
/** Declares gauges that read a feature's own block (typed against it). */
export const snapshotGauges = <B>(gauges: ReadonlyArray<SnapshotGauge<Readonly<CoreSnapshot> & B>>): readonly SnapshotGauge[] => gauges as unknown as readonly SnapshotGauge[];

/**
 * What a feature publishes, declared statically on its module so the composed snapshot schema,
 * docs/snapshot.schema.json, the MQTT discovery and the metrics are known without starting anything.
 */
export interface Published<Shape extends SnapshotShape = SnapshotShape, Live extends LiveShape = LiveShape> {
  /** Its blocks of the snapshot (the values come from the running feature's `snapshot` hook). */
  snapshot?: Shape;
  /** Its fields of the live state (the values come from its `onPoll` patch or `state.update`). */
  live?: Live;
  /** Its Home Assistant entities, in the order they are announced. */
  entities?: readonly SnapshotEntity[];
  /** Its metrics. */
  gauges?: readonly SnapshotGauge[];
}

/** A fetch as the features' HTTP clients take it (a fetcher of the outbound gate in the service). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * The settings a feature sees: the core (time zone, currency, gateway, tariff, …: core-settings.ts)
 * and its own sections, never another feature's.
 */
export type FeatureSettings<Own extends SettingsSection = never> = EnergyCore & SectionValues<Own>;

/** An alert rule the Home app shows as a contact sensor (open while the live state lists the rule among its `alerts`). */
export interface AlertSensor {
  id: string;
  name: string;
}

/** One hour of solar irradiance: the mean W/m² over the hour ending at `t` (epoch ms). */
export interface IrradianceHour {
  t: number;
  wm2: number;
}

/** The solar irradiance forecast for the place the owner set (a feature offers it: weather). */
export interface IrradianceForecast {
  /** Whether a forecast is wanted now (the weather is on). */
  enabled(): boolean;
  /** Changes whenever what `fetch` would ask for changes (place, forecast service): refetch then. */
  key(): string;
  /** Hourly irradiance from `pastDays` days back to the day after tomorrow in `timeZone`. */
  fetch(timeZone: string, pastDays: number, signal: AbortSignal): Promise<IrradianceHour[]>;
}

/** One closed local day's solar production (a feature keeps them: savings). */
export interface ProducedDay {
  date: string;
  solarKwh: number;
  /** Milliseconds of the day covered by integrated polls. */
  coveredMs: number;
}

/** What a feature gets from the energy service. Everything is passed in; nothing is reached for. */
export interface FeatureContext<S extends EnergyCore = EnergyCore> {
  clock: Clock;
  logger: Logger;
  /** Current settings, the core and the feature's own (read on every use, so live edits apply). */
  settings: () => S;
  /**
   * The shared live state. A feature changes only its own declared fields (its module's `live`),
   * never in place: from `onPoll` (the patch goes out with the poll) or, timer-driven, with
   * `state.update({ field })`, which publishes a new state.
   */
  state: LiveStateStore;
  /**
   * The outbound gate: every request a feature makes goes through a fetcher of it, with its
   * purpose (weather: an internet service; webhooks: where the owner pointed them).
   */
  outbound: Outbound;
  /** The service's data folder. */
  dataDir: string;
  /** The history database file (read-only use: today's totals after a change of time zone, the usual load). */
  historyFile: string;
  /** The passcode gate: preHandler for every route that changes something or probes the network. */
  gate: preHandlerAsyncHookHandler;
  /** The curated snapshot as `GET /api/snapshot` gives it (MQTT, metrics): this poll's one frozen object. */
  snapshot?: () => SnapshotView;
  /** Every feature's Home Assistant entities and the core's, composed in features.ts (MQTT). */
  entities?: readonly SnapshotEntity[];
  /** Every feature's snapshot gauges and the core's, composed in features.ts (metrics). */
  gauges?: readonly SnapshotGauge[];
  /**
   * Hands a command from the broker (a select, number or button entity's command topic) to the
   * feature that declared the entity (its `commands`); resolves once it has been dealt with.
   */
  command?: (key: string, payload: string) => Promise<void>;
  /** Live event-stream clients now (metrics). */
  eventClients?: () => number;
  /** The live prices when a price source (Amber, Octopus) is set; null or absent: the tariff's fixed rates. */
  prices?: () => PriceBook | null;
  /** Opens a Modbus connection to the gateway through the outbound gate (battery control's writes). */
  gatewayConnect?: ConnectionFactory;
  /** preHandler letting only the owner through (the PC itself or a passcode session; 403 `owner_only`). */
  ownerOnly?: preHandlerAsyncHookHandler;
  /** The alert rules shown in the Home app (HomeKit's contact sensors). */
  alertSensors?: () => readonly AlertSensor[];
  /** The name the bridge goes by in the home (the Home app's bridge, the smart-home room). */
  bridgeName?: () => string;
  /** The irradiance forecast another feature offers (weather), null when none does. */
  irradiance?: () => IrradianceForecast | null;
  /** Closed days' solar production from the feature that keeps them (savings), empty when none does. */
  producedDays?: (from: string, to: string) => readonly ProducedDay[];
}

/**
 * One energy feature (tariff, alerts, weather, daily totals, …). All hooks are optional.
 * - `onPoll` runs on each successful or failed poll before the state is published, and returns the
 *   fields it contributes (so one SSE event carries them); it must not block (no I/O awaited).
 * - `snapshot` returns the feature's blocks of the curated snapshot, as its module's `snapshot`
 *   shape declares them (it is given the frozen core, never writes into it; the snapshot is
 *   assembled once per poll: service/snapshot.ts).
 * - `routes` registers HTTP routes; `onSettings` is told about each saved settings change.
 */
export interface EnergyFeature<S extends EnergyCore = EnergyCore> extends RunningFeature {
  readonly name: string;
  onPoll?(next: LiveState, at: number, poll?: PollInfo): Partial<LiveState> | void;
  snapshot?(base: Readonly<CoreSnapshot>): Record<string, unknown> | void;
  onSettings?(prev: S, next: S): void;
  /**
   * What its command entities (select, number, button) do when the broker sends to them, by entity
   * key: the feature checks, acts and logs; a refusal is the feature's to record, never thrown back.
   */
  commands?: Readonly<Record<string, (payload: string) => Promise<void>>>;
  /** Re-reads the feature's own files and restarts it (an import replaced them). */
  reload?(): Promise<void>;
  /**
   * The stored polls this feature reads back after a start (today's totals, days its table lacks).
   * The service reads them once for every feature, after the port opens and in batches
   * (history/replay.ts); the feature holds its live polls until its `done`.
   */
  replay?(now: number): HistoryReplay | null;
  /** The irradiance forecast this feature offers the others (`ctx.irradiance`). */
  irradiance?: IrradianceForecast;
  /** The closed days this feature keeps, for the others (`ctx.producedDays`). */
  producedDays?(from: string, to: string): readonly ProducedDay[];
  /**
   * The HomeKit store an import of the previous program writes its identity into while the service
   * runs: an item through the running store, then a restart under the imported identity.
   */
  hapStore?: { writeItem(key: string, value: unknown): void; reload(): Promise<void> };
}

/** What a feature learns about the poll itself (metrics): how long it took (real milliseconds, whatever the clock). */
export interface PollInfo {
  durationMs: number;
}

export type FeatureFactory<Own extends SettingsSection = never> = (ctx: FeatureContext<FeatureSettings<Own>>) => EnergyFeature<FeatureSettings<Own>>;

/**
 * What a feature folder hands the service: its settings sections (schema, defaults, environment
 * seeds, secrets, `applies`, descriptions), what it publishes (snapshot blocks, live-state fields, MQTT entities,
 * metrics: `Published`) and, when it runs anything, its factory. The service's
 * list of these (features.ts) is the one place a feature is added.
 */
export interface EnergyFeatureModule<Sec extends SettingsSection = SettingsSection, Shape extends SnapshotShape = SnapshotShape, Live extends LiveShape = LiveShape>
  extends FeatureModule<readonly Sec[], FeatureContext<FeatureSettings<Sec>>, EnergyFeature<FeatureSettings<Sec>>>,
    Published<Shape, Live> {
  /** Sections of the settings this feature owns, in the order the settings file lists them. */
  readonly settings?: readonly Sec[];
}

/** Runs every feature's `onPoll` over a state about to be published; a failing feature is logged, not fatal. */
export function contribute(features: readonly EnergyFeature[], next: LiveState, at: number, logger: Logger, poll?: PollInfo): LiveState {
  let out = next;
  for (const f of features) {
    if (!f.onPoll) continue;
    try {
      const patch = f.onPoll(out, at, poll);
      if (patch) out = { ...out, ...patch };
    } catch (err) {
      logger.error({ err, feature: f.name }, 'feature failed on poll');
    }
  }
  return out;
}
