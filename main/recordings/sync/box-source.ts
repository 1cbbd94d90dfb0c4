import type { Logger } from '../../core/logger.js';
import { listItems, listShowFolders } from '../box/content-directory.js';
import { descriptionUrlFor, fetchBoxDescription, type BoxInfo, type FetchLike } from '../box/description.js';
import type { DidlItem } from '../box/didl.js';
import { discoverBoxes, type SsdpTarget } from '../box/ssdp.js';
import type { Show } from '../store/shows-store.js';
import { boxUnreachable, browseFailed, hostOf, noBoxFound } from './box-errors.js';

/** Why no box could be used: `box_unreachable` (the configured address), `box_not_found` (search) or `several_boxes` (search found more than one). */
export class BoxLookupError extends Error {
  constructor(
    readonly code: 'box_unreachable' | 'box_not_found' | 'several_boxes',
    message: string,
  ) {
    super(message);
  }
}

/** One recording on the box matched to a followed show: the unit of work of a sync. */
export interface WorkItem {
  box: BoxInfo;
  show: Show;
  /** The show folder's title on the box (the show's real name, used in file names). */
  folderTitle: string;
  item: DidlItem;
}

/** The followed show a box folder belongs to: case-insensitive substring; the longest name wins. */
export function matchShow(folderTitle: string, shows: readonly Show[]): Show | undefined {
  const title = folderTitle.toLowerCase();
  let best: Show | undefined;
  for (const s of shows) {
    const name = s.name.trim().toLowerCase();
    if (!name || !title.includes(name)) continue;
    if (!best || name.length > best.name.trim().length) best = s;
  }
  return best;
}

export interface BoxSourceDeps {
  fetch: FetchLike;
  logger: Logger;
  ssdp: SsdpTarget;
}

/**
 * The configured box (`box_address`), or every box SSDP finds (listing shows; a sync uses
 * `chooseSyncBoxes`). Throws a BoxLookupError whose
 * message says what was tried and what to do (the address and cause, or the devices that answered
 * and why each is not the box).
 */
export async function resolveBoxes(deps: BoxSourceDeps, boxAddress: string, signal?: AbortSignal): Promise<BoxInfo[]> {
  const addresses = boxAddresses(boxAddress);
  if (addresses.length) return (await configuredBoxes(deps, addresses, signal)).boxes;
  const found = await discoverBoxes({ target: deps.ssdp, fetch: deps.fetch, logger: deps.logger, signal });
  if (!found.boxes.length && !signal?.aborted) throw new BoxLookupError('box_not_found', noBoxFound(found.skipped));
  return found.boxes;
}

/** The `box_address` value that names `box`: `host:port` when that leads to its description, else the description URL. */
export function addressOf(box: BoxInfo): string {
  return descriptionUrlFor(box.address) === box.location ? box.address : box.location;
}

const describeBox = (b: BoxInfo) => `${b.friendlyName || 'unnamed box'} at ${addressOf(b)}`;

/** The addresses in `box_address`: one, or several separated by commas or spaces (two boxes on one LAN). */
export function boxAddresses(setting: string): string[] {
  return setting.split(/[\s,]+/).filter(Boolean);
}

/** The boxes `box_address` names; each one that cannot be reached is a message; none reachable throws. */
async function configuredBoxes(deps: BoxSourceDeps, addresses: string[], signal?: AbortSignal): Promise<{ boxes: BoxInfo[]; unreachable: string[] }> {
  const boxes: BoxInfo[] = [];
  const unreachable: string[] = [];
  for (const address of addresses) {
    const url = descriptionUrlFor(address);
    try {
      boxes.push(await fetchBoxDescription(deps.fetch, url, 5000, signal));
    } catch (err) {
      if (signal?.aborted) throw err;
      unreachable.push(boxUnreachable(hostOf(url), err));
    }
  }
  if (!boxes.length) throw new BoxLookupError('box_unreachable', unreachable.join('; '));
  return { boxes, unreachable };
}

/**
 * The boxes a sync talks to. With `box_address` set, the box(es) it names; one that cannot be
 * reached is an error of its own while the others still sync. Blank: SSDP; exactly one box
 * answering is used and returned as `pin` (the caller stores it as `box_address`, so a device that
 * appears later claiming to be a box is never synced); several answering sync none: the error names
 * them and says how to choose one or both.
 */
export async function chooseSyncBoxes(
  deps: BoxSourceDeps,
  boxAddress: string,
  signal?: AbortSignal,
): Promise<{ boxes: BoxInfo[]; unreachable: string[]; pin: string | null }> {
  const addresses = boxAddresses(boxAddress);
  if (addresses.length) return { ...(await configuredBoxes(deps, addresses, signal)), pin: null };
  const found = await discoverBoxes({ target: deps.ssdp, fetch: deps.fetch, logger: deps.logger, signal });
  if (found.boxes.length === 0) throw new BoxLookupError('box_not_found', noBoxFound(found.skipped));
  if (found.boxes.length > 1) {
    throw new BoxLookupError(
      'several_boxes',
      `${found.boxes.length} recording boxes answered discovery (${found.boxes.map(describeBox).join('; ')}): nothing synced; ` +
        'set box_address in the settings to the one to sync, or to several separated by commas to sync each',
    );
  }
  return { boxes: found.boxes, unreachable: [], pin: addressOf(found.boxes[0]!) };
}

function sameHost(url: string, box: BoxInfo): boolean {
  try {
    const u = new URL(url);
    return /^https?:$/.test(u.protocol) && u.hostname === new URL(box.location).hostname;
  } catch {
    return false;
  }
}

/** Browses one box and returns the items of the folders that match the given shows. */
export async function collectWork(deps: BoxSourceDeps, box: BoxInfo, shows: readonly Show[], signal?: AbortSignal): Promise<WorkItem[]> {
  const browse = { fetch: deps.fetch, controlUrl: box.controlUrl, signal };
  try {
    const folders = await listShowFolders(browse);
    const work: WorkItem[] = [];
    for (const folder of folders) {
      const show = matchShow(folder.title, shows);
      if (!show) continue;
      const items = await listItems(browse, folder.id);
      for (const item of items) {
        if (!item.id || !item.url) continue;
        // Media comes from the box that listed it, never from a host a listing names.
        if (!sameHost(item.url, box)) {
          deps.logger.warn({ box_id: item.id.slice(0, 64), url: item.url.slice(0, 200) }, 'skipping a listed item whose URL is not on the box');
          continue;
        }
        work.push({ box, show, folderTitle: folder.title, item });
      }
    }
    return work;
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new Error(browseFailed(box.address || hostOf(box.controlUrl), err));
  }
}
