import type { Logger } from '../../core/logger.js';
import { listItems, listShowFolders } from '../box/content-directory.js';
import { descriptionUrlFor, fetchBoxDescription, type BoxInfo, type FetchLike } from '../box/description.js';
import type { DidlItem } from '../box/didl.js';
import { discoverBoxes, type SsdpTarget } from '../box/ssdp.js';
import type { Show } from '../store/shows-store.js';
import { boxUnreachable, browseFailed, hostOf, noBoxFound } from './box-errors.js';

/** Why no box could be used: `box_unreachable` (the configured address) or `box_not_found` (search). */
export class BoxLookupError extends Error {
  constructor(
    readonly code: 'box_unreachable' | 'box_not_found',
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
 * The configured box (`box_address`), or every box SSDP finds. Throws a BoxLookupError whose
 * message says what was tried and what to do (the address and cause, or the devices that answered
 * and why each is not the box).
 */
export async function resolveBoxes(deps: BoxSourceDeps, boxAddress: string, signal?: AbortSignal): Promise<BoxInfo[]> {
  if (boxAddress) {
    const url = descriptionUrlFor(boxAddress);
    try {
      return [await fetchBoxDescription(deps.fetch, url, 5000)];
    } catch (err) {
      throw new BoxLookupError('box_unreachable', boxUnreachable(hostOf(url), err));
    }
  }
  const found = await discoverBoxes({ target: deps.ssdp, fetch: deps.fetch, logger: deps.logger, signal });
  if (!found.boxes.length && !signal?.aborted) throw new BoxLookupError('box_not_found', noBoxFound(found.skipped));
  return found.boxes;
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
      for (const item of items) if (item.id && item.url) work.push({ box, show, folderTitle: folder.title, item });
    }
    return work;
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new Error(browseFailed(box.address || hostOf(box.controlUrl), err));
  }
}
