import cron from 'node-cron';
import { z } from 'zod';
import type { SettingDef } from '../features/setting-def.js';
import { absolutePath } from '../features/validators.js';

const cronExpr = z
  .string()
  .trim()
  .min(1)
  .refine((c) => cron.validate(c), 'is not a valid cron expression (5 or 6 fields, e.g. "*/30 * * * *")');
/** An IP or host name with an optional port, or a full http URL of the device description. */
const oneBoxAddress = z.union([
  z.url({ protocol: /^https?$/ }),
  z
    .string()
    .max(255)
    .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/, 'must be an IP or host name, optionally with :port, or an http URL'),
]);
/** One box address, or several separated by commas or spaces (two boxes on one LAN); blank searches by SSDP. */
const boxAddress = z
  .string()
  .max(1024)
  .superRefine((value, ctx) => {
    const parts = value.split(/[\s,]+/).filter(Boolean);
    if (parts.length > 8) ctx.addIssue({ code: 'custom', message: 'at most 8 box addresses' });
    for (const part of parts) {
      if (!oneBoxAddress.safeParse(part).success) {
        ctx.addIssue({ code: 'custom', message: `"${part.slice(0, 80)}" must be an IP or host name, optionally with :port, or an http URL` });
        return;
      }
    }
  });

/** What the sync itself reads: where the library is, when to sync, which box, how to download. */
export const syncSettings = {
  media_root: {
    schema: absolutePath,
    default: '/media/tv',
    env: 'MEDIA_ROOT',
    applies: 'live',
    label: 'Media folder',
    description: 'The folder your TV library lives in; each show gets a folder inside it. It must already exist and this computer must be able to write to it.',
  },
  sync_cron: {
    schema: cronExpr,
    default: '*/30 * * * *',
    applies: 'live',
    label: 'Sync schedule',
    description: 'When to look for new recordings, as a cron schedule: "*/30 * * * *" means every half hour. Sync now works at any time.',
  },
  box_address: {
    schema: boxAddress,
    default: '',
    applies: 'live',
    label: 'Recording box address',
    description: "The box's IP address or name on your network. Leave blank to find it by itself; with two boxes, list both, separated by commas.",
  },
  download_concurrency: {
    schema: z.number().int().min(1).max(4),
    default: 1,
    applies: 'live',
    label: 'Downloads at once',
    description: 'How many recordings download at the same time, 1 to 4. More is quicker on a fast network but works the box harder.',
  },
  /** Free space a download must leave on the media root's disk (MB); an item that would not is skipped. */
  free_space_margin_mb: {
    schema: z.number().int().min(0).max(1024 * 1024),
    default: 256,
    applies: 'live',
    label: 'Space to keep free (MB)',
    description: 'A recording is skipped rather than fill the disk: at least this much space must be left free after it downloads.',
  },
  size_tolerance_bytes: {
    schema: z.number().int().min(0).max(1024 * 1024 * 1024),
    default: 1024 * 1024,
    applies: 'live',
    label: 'Size tolerance (bytes)',
    description: 'How far a finished download may differ from the size the box gives and still count as complete.',
  },
} as const satisfies Record<string, SettingDef>;
