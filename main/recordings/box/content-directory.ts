import { fetchBounded, MAX_BROWSE_BYTES } from './bounded-fetch.js';
import { parseDidl, type DidlContainer, type DidlEntry, type DidlItem } from './didl.js';
import type { FetchLike } from './description.js';
import { createBoxXmlParser, escapeXml, parseBoxXml, textOf } from './xml.js';

const SERVICE = 'urn:schemas-upnp-org:service:ContentDirectory:1';
const envelopeParser = createBoxXmlParser();

export interface BrowseOptions {
  fetch: FetchLike;
  controlUrl: string;
  /** Items asked for per page; the box may return fewer. */
  pageSize?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Most bytes one Browse answer may have (default MAX_BROWSE_BYTES). */
  maxResponseBytes?: number;
  /** All pages of one container must arrive within this (default BROWSE_TOTAL_TIMEOUT_MS). */
  totalTimeoutMs?: number;
}

/** A container listed page by page may take this long in all (a real one takes seconds). */
export const BROWSE_TOTAL_TIMEOUT_MS = 5 * 60_000;

/** Most entries one container may list across all its pages (a real box holds a few thousand recordings). */
export const MAX_CHILDREN = 20_000;

function browseEnvelope(objectId: string, start: number, count: number): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
    `<s:Body><u:Browse xmlns:u="${SERVICE}">` +
    `<ObjectID>${escapeXml(objectId)}</ObjectID><BrowseFlag>BrowseDirectChildren</BrowseFlag><Filter>*</Filter>` +
    `<StartingIndex>${start}</StartingIndex><RequestedCount>${count}</RequestedCount><SortCriteria></SortCriteria>` +
    '</u:Browse></s:Body></s:Envelope>'
  );
}

/** Every direct child of `objectId`, paging with StartingIndex until TotalMatches is reached. */
export async function browseChildren(opts: BrowseOptions, objectId: string): Promise<DidlEntry[]> {
  const pageSize = opts.pageSize ?? 100;
  const out: DidlEntry[] = [];
  let start = 0;
  const what = `Browse ${objectId.slice(0, 64)}`;
  const deadline = Date.now() + (opts.totalTimeoutMs ?? BROWSE_TOTAL_TIMEOUT_MS);
  for (let page = 0; page < 10_000; page++) {
    if (page > 0 && Date.now() > deadline) throw new Error(`${what}: the box took longer than ${Math.round((opts.totalTimeoutMs ?? BROWSE_TOTAL_TIMEOUT_MS) / 1000)} s to list it: refused`);
    const res = await fetchBounded(
      opts.fetch,
      opts.controlUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset="utf-8"', soapaction: `"${SERVICE}#Browse"` },
        body: browseEnvelope(objectId, start, pageSize),
      },
      { maxBytes: opts.maxResponseBytes ?? MAX_BROWSE_BYTES, timeoutMs: opts.timeoutMs ?? 15_000, signal: opts.signal, what: `the ${what} answer` },
    );
    if (!res.ok) throw new Error(`${what} answered HTTP ${res.status}`);
    const env = parseBoxXml(envelopeParser, res.text, `the ${what} answer`);
    const body = (env.Envelope as Record<string, unknown> | undefined)?.Body as Record<string, unknown> | undefined;
    const resp = body?.BrowseResponse as Record<string, unknown> | undefined;
    if (!resp) throw new Error(`${what}: no BrowseResponse in the reply`);
    const entries = parseDidl(textOf(resp.Result));
    const returned = Number(textOf(resp.NumberReturned)) || entries.length;
    const total = Number(textOf(resp.TotalMatches));
    if (out.length + entries.length > MAX_CHILDREN) throw new Error(`${what}: more than ${MAX_CHILDREN} entries listed: refused`);
    for (const e of entries) out.push(e);
    start += returned;
    if (returned === 0 || entries.length === 0 || !Number.isFinite(total) || start >= total) break;
  }
  return out;
}

export interface BoxShowFolder {
  id: string;
  title: string;
  childCount: number | null;
}

/** The show folders under the root container titled `Recordings` (found by title, not id). */
export async function listShowFolders(opts: BrowseOptions): Promise<BoxShowFolder[]> {
  const root = await browseChildren(opts, '0');
  const recordings = root.find((e): e is DidlContainer => e.kind === 'container' && e.title.trim().toLowerCase() === 'recordings');
  if (!recordings) throw new Error('the box has no "Recordings" container');
  const children = await browseChildren(opts, recordings.id);
  return children
    .filter((e): e is DidlContainer => e.kind === 'container')
    .map((c) => ({ id: c.id, title: c.title, childCount: c.childCount }));
}

export async function listItems(opts: BrowseOptions, folderId: string): Promise<DidlItem[]> {
  const children = await browseChildren(opts, folderId);
  return children.filter((e): e is DidlItem => e.kind === 'item');
}
