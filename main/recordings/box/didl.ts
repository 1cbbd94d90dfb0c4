import { createBoxXmlParser, MAX_XML_TEXT, parseBoxXml, textOf } from './xml.js';

export interface DidlContainer {
  kind: 'container';
  id: string;
  parentId: string;
  title: string;
  childCount: number | null;
}

export interface DidlItem {
  kind: 'item';
  id: string;
  parentId: string;
  title: string;
  upnpClass: string;
  description: string;
  recordedStart: string | null;
  url: string | null;
  /** Listing size in bytes; -1 (or any value <= 0) means "recording, size unknown". */
  size: number;
  duration: string | null;
  /** Show name the box attaches to the resource (`parentTaskName`). */
  taskName: string | null;
}

export type DidlEntry = DidlContainer | DidlItem;

const parser = createBoxXmlParser(['container', 'item', 'res']);

/** Longest box id accepted (real ids are 9-digit numbers); an entry with a longer or empty id, or one with control characters, is dropped. */
export const MAX_BOX_ID = 128;
/** Titles (show folders and items) are cut to this many characters. */
export const MAX_TITLE = 500;

const capped = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

/** Repairs raw `&` that real boxes leave in titles (not the start of an entity). */
function repairAmpersands(xml: string): string {
  return xml.replace(/&(?!(?:[A-Za-z][A-Za-z0-9]{1,31}|#\d{1,7}|#x[0-9A-Fa-f]{1,6});)/g, '&amp;');
}

function attr(node: Record<string, unknown>, name: string): string {
  const v = node[`@_${name}`];
  return v === undefined || v === null ? '' : capped(String(v), MAX_XML_TEXT);
}

const text = (node: unknown, max = MAX_XML_TEXT) => capped(textOf(node), max);
// eslint-disable-next-line no-control-regex -- an id with control characters (NUL included) is refused
const idOk = (id: string) => id.length > 0 && id.length <= MAX_BOX_ID && !/[\u0000-\u001f\u007f]/.test(id);

/** Parses a DIDL-Lite document (the `Result` of a Browse) into containers and items, in order. */
export function parseDidl(xml: string): DidlEntry[] {
  const doc = parseBoxXml(parser, repairAmpersands(xml), 'the DIDL-Lite listing');
  const root = (doc['DIDL-Lite'] ?? {}) as Record<string, unknown>;
  if (typeof root !== 'object') return [];
  const out: DidlEntry[] = [];
  for (const c of (root.container ?? []) as Array<Record<string, unknown>>) {
    const cc = attr(c, 'childCount');
    if (!idOk(attr(c, 'id'))) continue;
    out.push({
      kind: 'container',
      id: attr(c, 'id'),
      parentId: attr(c, 'parentID'),
      title: text(c.title, MAX_TITLE),
      childCount: cc === '' || !Number.isFinite(Number(cc)) ? null : Number(cc),
    });
  }
  for (const i of (root.item ?? []) as Array<Record<string, unknown>>) {
    const res = ((i.res ?? []) as unknown[])[0];
    const resObj = (typeof res === 'object' && res !== null ? res : {}) as Record<string, unknown>;
    const sizeText = attr(resObj, 'size');
    if (!idOk(attr(i, 'id'))) continue;
    const size = sizeText === '' || !/^-?\d+$/.test(sizeText.trim()) ? -1 : Number(sizeText.trim());
    out.push({
      kind: 'item',
      id: attr(i, 'id'),
      parentId: attr(i, 'parentID'),
      title: text(i.title, MAX_TITLE),
      upnpClass: text(i.class, 200),
      description: text(i.description),
      recordedStart: text(i.recordedStartDateTime, 200) || null,
      url: text(res, 2048) || null,
      size,
      duration: attr(resObj, 'duration') || null,
      taskName: attr(resObj, 'parentTaskName') || null,
    });
  }
  return out;
}

export interface EpisodeInfo {
  season: number | null;
  episode: number | null;
  /** The episode's own title with the `S4 E2 - ` head and the ` - Wed 01 Jul` date tail removed. */
  episodeTitle: string;
}

const DATE_TAIL = /\s+-\s+(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\s+\d{1,2}\s+[A-Za-z]{3,}(?:\s+\d{4})?\s*$/;
const SE_SHORT = /^\s*S(?:eason)?\s*(\d{1,3})\s*E(?:p(?:isode)?)?\s*(\d{1,4})\b\s*(?:-\s*)?/i;
const SE_LONG = /^\s*Season\s+(\d{1,3})\s+Episode\s+(\d{1,4})\b\s*(?:-\s*)?/i;

/** Season and episode from the box title (`S4 E2 - …`, `S04E02 …`, `Season 4 Episode 2 - …`). */
export function parseEpisodeTitle(title: string): EpisodeInfo {
  const withoutTail = title.replace(DATE_TAIL, '');
  const m = SE_LONG.exec(withoutTail) ?? SE_SHORT.exec(withoutTail);
  if (!m) return { season: null, episode: null, episodeTitle: withoutTail.trim() };
  return { season: Number(m[1]), episode: Number(m[2]), episodeTitle: withoutTail.slice(m[0].length).trim() };
}
