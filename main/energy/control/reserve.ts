import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { AppError, invalid } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import { CONTROL_REGISTERS, type ControlKey, type ControlValues } from '../gateway/control-registers.js';
import { firmwareAtLeast, type Firmware } from '../gateway/registers.js';
import type { BatteryController } from './controller.js';

/** The plant's backup and cut-off SOCs (40046–40048, protocol V2.7+), as GET and PUT /api/control/reserve name them. */
export const RESERVE_KEYS = ['backupSoc', 'chargeCutoffSoc', 'dischargeCutoffSoc'] as const satisfies readonly ControlKey[];

const percent = z
  .number()
  .min(0)
  .max(100)
  .refine((v) => Math.round(v * 10) === v * 10, 'must be a percentage in steps of 0.1');

export const reserveRequest = z.object({ backupSoc: percent.optional(), chargeCutoffSoc: percent.optional(), dischargeCutoffSoc: percent.optional() }).strict();

/** Null when the firmware has the registers; else why not, in words. */
export function reserveUnsupported(firmware: Firmware | null): string | null {
  const since = CONTROL_REGISTERS.backupSoc.since;
  if (firmware === null) return 'The gateway’s firmware is not known yet (no reading so far): the backup and cut-off SOCs are shown once it answers.';
  if (!firmwareAtLeast(firmware, since)) return `This gateway’s firmware (protocol ${firmware}) has no backup or cut-off SOC registers: they came with ${since}. Set them in the vendor’s app.`;
  return null;
}

/**
 * GET /api/control/reserve: the backup SOC (kept for a grid outage) and the charge / discharge
 * cut-off SOCs as the plant holds them now, or `supported: false` and why. PUT (the owner): any of
 * them, through the controller's rails and the plant-writer (allow-list, bounds, read-back, audit,
 * write budget). The discharge cut-off stays below the charge cut-off, the backup SOC not above it.
 */
export function registerReserveRoutes(app: FastifyInstance, deps: { controller: BatteryController; firmware: () => Firmware | null; owner: preHandlerAsyncHookHandler[]; now: () => number }): void {
  const unsupported = () => {
    const why = reserveUnsupported(deps.firmware());
    return why === null ? null : { supported: false as const, message: why };
  };
  const readNow = async (): Promise<ControlValues> => {
    try {
      return await deps.controller.read(RESERVE_KEYS);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError(502, 'gateway_read_failed', `The gateway did not answer the read: ${(err as Error).message}`);
    }
  };
  // Anyone on the LAN may look, so a look costs the gateway at most one read per READ_REUSE_MS:
  // looks at the same time share one read, and a read is reused for a while. Without this a guest's
  // burst of GETs would queue reads in the controller's one queue, ahead of the owner's kill switch.
  let shared: { at: number; values: Promise<ControlValues> } | null = null;
  const look = (): Promise<ControlValues> => {
    const now = deps.now();
    if (!shared || now - shared.at >= READ_REUSE_MS || now < shared.at) {
      const values = readNow();
      const mine = { at: now, values };
      shared = mine;
      values.catch(() => {
        if (shared === mine) shared = null; // a failed read is not reused
      });
    }
    return shared.values;
  };
  app.get('/api/control/reserve', async () => {
    const no = unsupported();
    if (no) return no;
    return { supported: true as const, ...(await look()) };
  });
  app.put('/api/control/reserve', { preHandler: deps.owner }, async (req) => {
    const body = parseInput(reserveRequest, req.body, 'body');
    const asked = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as ControlValues;
    if (!Object.keys(asked).length) throw invalid('body', `give at least one of ${RESERVE_KEYS.join(', ')}`);
    const no = unsupported();
    if (no) throw new AppError(409, 'not_supported', no.message);
    const next = { ...(await readNow()), ...asked };
    if (next.dischargeCutoffSoc! >= next.chargeCutoffSoc!) {
      const field = asked.dischargeCutoffSoc !== undefined ? 'dischargeCutoffSoc' : 'chargeCutoffSoc';
      throw invalid(field, `the discharge cut-off (${next.dischargeCutoffSoc} %) must be below the charge cut-off (${next.chargeCutoffSoc} %)`);
    }
    if (next.backupSoc! > next.chargeCutoffSoc!) {
      const field = asked.backupSoc !== undefined ? 'backupSoc' : 'chargeCutoffSoc';
      throw invalid(field, `the backup SOC (${next.backupSoc} %) must not be above the charge cut-off (${next.chargeCutoffSoc} %)`);
    }
    const words = (Object.entries(asked) as Array<[ControlKey, number]>).map(([k, v]) => `${LABELS[k]} ${v} %`).join(', ');
    try {
      return await deps.controller.writeSettings(asked, 'owner', `Set ${words}`);
    } finally {
      shared = null; // the next look reads what was written
    }
  });
}

/** How long one read of the SOCs answers every look (the page's refresh, a guest's burst). */
const READ_REUSE_MS = 10_000;

const LABELS: Partial<Record<ControlKey, string>> = { backupSoc: 'backup SOC', chargeCutoffSoc: 'charge cut-off SOC', dischargeCutoffSoc: 'discharge cut-off SOC' };
