import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, invalid } from '../../core/errors.js';
import { hostPort, noHttpAnswer, OutboundRefused } from '../../core/outbound.js';
import { parseInput } from '../../core/validate.js';
import { listShowFolders } from '../box/content-directory.js';
import { fetchBounded, MAX_DESCRIPTION_BYTES, ResponseTooLargeError } from '../box/bounded-fetch.js';
import { descriptionUrlFor, fetchBoxDescription, NotABoxError, parseDescription, type BoxInfo } from '../box/description.js';
import { discoverBoxes } from '../box/ssdp.js';
import { RATE_LIMITS } from '../http-security.js';
import { settingDefs } from '../settings.js';
import { browseFailed, CHECK_ADDRESS, networkCause, noBoxFound } from '../sync/box-errors.js';
import { boxAddresses, BoxLookupError, matchShow, resolveBoxes } from '../sync/box-source.js';
import { requireNoBody, type RouteContext } from './context.js';

const discoverBody = z.object({ address: settingDefs.box_address.schema.optional() }).strict();

const boxView = (b: BoxInfo) => ({ udn: b.udn, friendly_name: b.friendlyName, model_name: b.modelName, address: b.address, location: b.location });

/**
 * The box at an address the caller typed. The answer is one of three short outcomes (the detail
 * goes to the log): the box; "no HTTP answer" (the same for a closed port, a silent host and a
 * service that does not speak HTTP); or "answered, but not as a recording box". An address the
 * outbound gate refuses (not on the home network) is a 400 naming `address`.
 */
async function probeBox(ctx: RouteContext, address: string): Promise<BoxInfo> {
  const url = descriptionUrlFor(address);
  const target = hostPort(new URL(url));
  const log = ctx.logger.child({ component: 'discover-box' });
  let text: string;
  try {
    const res = await fetchBounded(ctx.fetch, url, {}, { maxBytes: MAX_DESCRIPTION_BYTES, timeoutMs: 5000, signal: ctx.stopSignal, what: `description ${url}` });
    if (!res.ok) throw new NotABoxError(`answered HTTP ${res.status}`);
    text = res.text;
  } catch (err) {
    if (err instanceof OutboundRefused) throw invalid('address', err.message);
    log.info({ target, detail: networkCause(err) }, 'box address check failed');
    if (err instanceof NotABoxError || err instanceof ResponseTooLargeError) throw new AppError(502, 'box_unreachable', `the device at ${target} answered HTTP, but not as a recording box — ${CHECK_ADDRESS}`);
    throw new AppError(502, 'box_unreachable', `${noHttpAnswer(url)} — is the box on? ${CHECK_ADDRESS}`);
  }
  try {
    return parseDescription(text, url);
  } catch (err) {
    log.info({ target, detail: (err as Error).message }, 'box address check failed');
    throw new AppError(502, 'box_unreachable', `the device at ${target} answered HTTP, but not as a recording box — ${CHECK_ADDRESS}`);
  }
}

/** How long `GET /api/box` reuses what the box said (pages poll it; the box is asked at most this often). */
export const BOX_NAME_CACHE_MS = 30_000;

export interface SavedBoxView {
  /** The address as saved in `box_address`. */
  address: string;
  reachable: boolean;
  friendly_name: string | null;
  model_name: string | null;
  /** Why the box did not answer (one short line), when it did not. */
  message?: string;
}

export function registerBoxRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /**
   * The saved box(es) by name: what each one's description says (friendly name, model), or that it
   * did not answer. Only the owner's `box_address` is asked (never a caller's target), time- and
   * size-limited, and the answer is reused for BOX_NAME_CACHE_MS.
   */
  let boxCache: { key: string; at: number; boxes: SavedBoxView[] } | null = null;
  app.get('/api/box', async () => {
    const setting = ctx.settings.get().box_address;
    const now = ctx.clock.now();
    if (boxCache && boxCache.key === setting && now - boxCache.at < BOX_NAME_CACHE_MS) return { boxes: boxCache.boxes };
    const boxes: SavedBoxView[] = [];
    for (const address of boxAddresses(setting).slice(0, 4)) {
      const url = descriptionUrlFor(address);
      try {
        const info = await fetchBoxDescription(ctx.fetch, url, 3000, ctx.stopSignal);
        boxes.push({ address, reachable: true, friendly_name: info.friendlyName || null, model_name: info.modelName || null });
      } catch (err) {
        ctx.logger.child({ component: 'box-name' }).info({ target: hostPort(new URL(url)), detail: networkCause(err) }, 'saved box did not answer');
        boxes.push({ address, reachable: false, friendly_name: null, model_name: null, message: `${noHttpAnswer(url)} — is the box on?` });
      }
    }
    boxCache = { key: setting, at: now, boxes };
    return { boxes };
  });

  /** SSDP search (every box found; other devices and broken XML skipped) or a manual address. */
  app.post('/api/discover-box', { config: { rateLimit: RATE_LIMITS.discovery } }, async (req) => {
    const { address } = parseInput(discoverBody, req.body ?? {}, 'body');
    if (address) return { boxes: [boxView(await probeBox(ctx, address))], skipped: [] };
    const found = await discoverBoxes({ target: ctx.ssdp, fetch: ctx.fetch, logger: ctx.logger, signal: ctx.stopSignal });
    // Nothing found: say which devices answered and why none is the box, as a sync would.
    if (!found.boxes.length) return { boxes: [], skipped: found.skipped, message: noBoxFound(found.skipped) };
    return { boxes: found.boxes.map(boxView), skipped: found.skipped };
  });

  /** The show folders on the box (configured address or discovered boxes), with the followed show each matches. */
  app.post('/api/box-shows', { config: { rateLimit: RATE_LIMITS.boxShows } }, async (req) => {
    requireNoBody(req.body);
    let boxes: BoxInfo[];
    try {
      boxes = await resolveBoxes(ctx, ctx.settings.get().box_address, ctx.stopSignal);
    } catch (err) {
      if (err instanceof BoxLookupError) throw new AppError(502, err.code, err.message);
      throw err;
    }
    if (boxes.length === 0) throw new AppError(503, 'stopping', 'the service is stopping');
    const shows = ctx.shows.list();
    const out = [];
    for (const box of boxes) {
      try {
        const folders = await listShowFolders({ fetch: ctx.fetch, controlUrl: box.controlUrl, signal: ctx.stopSignal });
        out.push({
          box: boxView(box),
          shows: folders.map((f) => ({ id: f.id, title: f.title, item_count: f.childCount, followed_show_id: matchShow(f.title, shows)?.id ?? null })),
        });
      } catch (err) {
        out.push({ box: boxView(box), shows: [], error: browseFailed(box.address, err) });
      }
    }
    return { boxes: out };
  });
}
