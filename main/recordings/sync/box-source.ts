import type { Logger } from '../../core/logger.js';
import { listItems, listShowFolders } from '../box/content-directory.js';
import { descriptionUrlFor, fetchBoxDescription, type BoxInfo, type FetchLike } from '../box/description.js';
import type { DidlItem } from '../box/didl.js';
import { discoverBoxes, type SsdpTarget } from '../box/ssdp.js';
import type { Show } from '../store/shows-store.js';

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

/** The configured box (`box_address`), or every box SSDP finds (listing shows; a sync uses `chooseSyncBox`). */
export async function resolveBoxes(deps: BoxSourceDeps, boxAddress: string, signal?: AbortSignal): Promise<BoxInfo[]> {
  if (boxAddress) return [await fetchBoxDescription(deps.fetch, descriptionUrlFor(boxAddress), 5000)];
  const found = await discoverBoxes({ target: deps.ssdp, fetch: deps.fetch, logger: deps.logger, signal });
  return found.boxes;
}

/** The `box_address` value that names `box`: `host:port` when that leads to its description, else the description URL. */
export function addressOf(box: BoxInfo): string {
  return descriptionUrlFor(box.address) === box.location ? box.address : box.location;
}

const describeBox = (b: BoxInfo) => `${b.friendlyName || 'unnamed box'} at ${addressOf(b)}`;

/**
 * The one box a sync talks to. With `box_address` set, that box. Blank: SSDP; exactly one box
 * answering is used and returned as `pin` (the caller stores it as `box_address`, so a device that
 * appears later claiming to be a box is never synced); several answering sync none: the error
 * names them and says how to choose.
 */
export async function chooseSyncBox(deps: BoxSourceDeps, boxAddress: string, signal?: AbortSignal): Promise<{ box: BoxInfo; pin: string | null }> {
  if (boxAddress) return { box: await fetchBoxDescription(deps.fetch, descriptionUrlFor(boxAddress), 5000, signal), pin: null };
  const { boxes } = await discoverBoxes({ target: deps.ssdp, fetch: deps.fetch, logger: deps.logger, signal });
  if (boxes.length === 0) throw new Error('no recording box found (set box_address or check the network)');
  if (boxes.length > 1) {
    throw new Error(
      `${boxes.length} recording boxes answered discovery (${boxes.map(describeBox).join('; ')}): nothing synced; ` +
        'set box_address in the settings to the one to sync',
    );
  }
  return { box: boxes[0]!, pin: addressOf(boxes[0]!) };
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
}
