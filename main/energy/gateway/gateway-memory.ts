import fs from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/atomic-file.js';
import type { Logger } from '../../core/logger.js';
import type { PlantKnowledge } from './plant-reader.js';
import { FIRMWARE_VERSIONS } from './registers.js';

/**
 * What the bridge learnt about each gateway (inverter unit ids, the learnt block plans), kept in
 * `<dataDir>/energy/gateway-memory.json` so a restart polls known inverters from the first poll.
 * Keyed by host and port; the firmware generation is stored with it and checked on reconnect
 * (a different generation discards the entry). The file is a cache: a bad one is ignored.
 */
const plan = z.object({
  blocks: z.array(z.array(z.string().max(64)).max(200)).max(200),
  unsupported: z.array(z.string().max(64)).max(500),
  refused: z.array(z.string().max(64)).max(2000),
});

const knowledgeSchema = z.object({
  firmware: z.enum(FIRMWARE_VERSIONS),
  plant: plan,
  inverters: z
    .array(
      z.object({
        unitId: z.number().int().min(1).max(246),
        model: z.string().max(64),
        serial: z.string().max(64),
        firmware: z.string().max(64),
        plan: plan.optional(),
      }),
    )
    .max(246),
});

const fileSchema = z.object({
  version: z.literal(1),
  gateways: z.record(z.string().max(300), knowledgeSchema.extend({ savedAt: z.number() })),
});

/** Gateways remembered at most; the oldest entry goes first. */
const MAX_GATEWAYS = 8;

export interface GatewayMemory {
  get(host: string, port: number): PlantKnowledge | null;
  set(host: string, port: number, k: PlantKnowledge): void;
  forget(host: string, port: number): void;
}

const keyOf = (host: string, port: number) => `${host.toLowerCase()}:${port}`;

export function createGatewayMemory(file: string, logger: Logger, now: () => number = Date.now): GatewayMemory {
  let data: z.infer<typeof fileSchema> = { version: 1, gateways: {} };
  try {
    if (fs.existsSync(file)) {
      const parsed = fileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
      if (parsed.success) data = parsed.data;
      else logger.warn({ file }, 'gateway memory file not understood; starting afresh');
    }
  } catch (err) {
    logger.warn({ file, err: (err as Error).message }, 'gateway memory file unreadable; starting afresh');
  }
  const save = () => {
    try {
      writeFileAtomic(file, JSON.stringify(data));
    } catch (err) {
      logger.warn({ file, err: (err as Error).message }, 'gateway memory not saved');
    }
  };
  return {
    get(host, port) {
      const entry = data.gateways[keyOf(host, port)];
      if (!entry) return null;
      const { savedAt: _savedAt, ...k } = entry;
      return k;
    },
    set(host, port, k) {
      data.gateways[keyOf(host, port)] = { ...k, savedAt: now() };
      const keys = Object.keys(data.gateways).sort((a, b) => data.gateways[b]!.savedAt - data.gateways[a]!.savedAt);
      for (const old of keys.slice(MAX_GATEWAYS)) delete data.gateways[old];
      save();
    },
    forget(host, port) {
      if (!data.gateways[keyOf(host, port)]) return;
      delete data.gateways[keyOf(host, port)];
      save();
    },
  };
}

/** A memory that keeps nothing (tests and callers without a data folder). */
export const noGatewayMemory: GatewayMemory = { get: () => null, set: () => undefined, forget: () => undefined };
