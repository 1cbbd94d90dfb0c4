import { z } from 'zod';
import { energyFeatures } from './features.js';
import type { LiveShape, Published, SnapshotEntity, SnapshotGauge, SnapshotShape } from './feature.js';
import type { LiveState } from './live-state.js';
import type { SharedLiveFields } from './live/shared-fields.js';
import { coreEntities, coreGauges } from './live/published.js';
import { coreSnapshotShape } from './live/snapshot-schema.js';
import { pricesBlock, pricesEntities, pricesGauges } from './prices/published.js';

/*
 * What the energy bridge publishes, composed once from the core and the features' modules (their
 * static `snapshot`, `live`, `entities`, `gauges`: feature.ts `Published`), so the schema, docs/snapshot.schema.json,
 * the MQTT discovery and the metrics are known without starting anything. Only the service imports
 * this (a feature never does: import-cycles.test.ts).
 */

/**
 * What is published beyond the features: the core's readings (the gateway's and the service's) and
 * the live prices (a part of the core, like the tariff they price).
 */
const core = [
  { snapshot: coreSnapshotShape, entities: coreEntities, gauges: coreGauges },
  { snapshot: pricesBlock, entities: pricesEntities, gauges: pricesGauges },
] as const satisfies readonly Published[];

type Parts = (typeof core)[number] | (typeof energyFeatures)[number];
type ShapeOf<P> = P extends { readonly snapshot?: infer S } ? (SnapshotShape extends S ? never : NonNullable<S>) : never;
type LiveShapeOf<P> = P extends { readonly live?: infer S } ? (LiveShape extends S ? never : NonNullable<S>) : never;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
const parts: readonly Published[] = [...core, ...energyFeatures];

/**
 * The curated snapshot (`GET /api/snapshot`), schema version 1, as published in docs/energy-api.md
 * and docs/snapshot.schema.json: the core's blocks, then each feature's in list order.
 */
export const snapshotSchema = z.object(Object.assign({}, ...parts.map((p) => p.snapshot ?? {})) as Intersection<ShapeOf<Parts>>);
export type Snapshot = z.output<typeof snapshotSchema>;

/** Every Home Assistant entity the energy bridge announces (MQTT), the core's first. */
export const energyEntities: readonly SnapshotEntity[] = parts.flatMap((p) => p.entities ?? []);

/** Every gauge read from the snapshot (metrics), the core's first. */
export const energyGauges: readonly SnapshotGauge[] = parts.flatMap((p) => p.gauges ?? []);

/**
 * The features' fields of the live state (`GET /api/state`, the SSE state event), in list order
 * after the core's (live-state.ts): each feature's `live` shape, declared in its folder.
 */
export const liveFieldsSchema = z.object(Object.assign({}, ...parts.map((p) => p.live ?? {})) as Intersection<LiveShapeOf<Parts>>);
export type LiveFields = z.output<typeof liveFieldsSchema>;

/** The whole live state as the service publishes it: the core's fields and the features'. */
export type EnergyLiveState = LiveState & LiveFields;

/** The features' fields before any of them published (each field's default; optional ones absent). */
export const initialLiveFields = (): LiveFields => liveFieldsSchema.parse({});

/** What a feature or the core reads of another feature's field (shared-fields.ts) is what that feature declares. */
type Fits<T extends SharedLiveFields> = T;
export type CheckedSharedFields = Fits<LiveFields>;
