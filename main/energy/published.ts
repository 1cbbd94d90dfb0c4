import { z } from 'zod';
import { energyFeatures } from './features.js';
import type { Published, SnapshotEntity, SnapshotGauge, SnapshotShape } from './feature.js';
import { coreEntities, coreGauges } from './live/published.js';
import { coreSnapshotShape } from './live/snapshot-schema.js';
import { pricesBlock, pricesEntities, pricesGauges } from './prices/published.js';

/*
 * What the energy bridge publishes, composed once from the core and the features' modules (their
 * static `snapshot`, `entities`, `gauges`: feature.ts `Published`), so the schema, docs/snapshot.schema.json,
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
