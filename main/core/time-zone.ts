import { offsetAt, parseTzif, TZIF_MAX_BYTES, type ZoneRules } from './tzif.js';

/**
 * IANA time zones without Intl's locale machinery: offsets come from the system's compiled tz
 * database (TZif files under TZDIR, /usr/share/zoneinfo by default) where there is one, and from
 * `Intl.DateTimeFormat` only where there is not (Windows, a system without tzdata, or a browser:
 * the pages share this module, so `node:fs` is reached through `process.getBuiltinModule` and never
 * imported). See tzif.ts for why.
 */

/** A zone's offset (ms, local wall clock minus UTC) at an instant (ms). */
export type ZoneOffset = (t: number) => number;

const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'UCT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu', 'GMT', 'Etc/GMT', 'Etc/GMT0', 'Etc/GMT+0', 'Etc/GMT-0', 'GMT0', 'Etc/Greenwich', 'Greenwich']);
/** What a zone name must look like to be looked up as a file under the zone directory: no dots, no way out. */
const ZONE_FILE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,3}$/;
/** A name the zone directory alone may vouch for: Area/Location, not its posix/ or right/ copies. */
const AREA_LOCATION = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){1,3}$/;

/** Node's file system, or null in a browser. */
const nodeFs = (): typeof import('node:fs') | null => (typeof process === 'object' && typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:fs') : null);
const zoneDir = () => (typeof process === 'object' && process.env?.TZDIR) || '/usr/share/zoneinfo';
const offsets = new Map<string, ZoneOffset>();
let canonical: Set<string> | null = null;

/** The zone's rules from the system's tz database, or null where it has no (usable) file for it. */
export function systemZoneRules(tz: string, dir = zoneDir()): ZoneRules | null {
  const fs = nodeFs();
  if (!fs || !ZONE_FILE.test(tz) || tz.length > 64) return null;
  try {
    const file = `${dir}/${tz}`;
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > TZIF_MAX_BYTES) return null;
    return parseTzif(fs.readFileSync(file));
  } catch {
    return null;
  }
}

/** Offsets through Intl (ICU's copy of the tz data): for systems without a tz database. */
export function intlOffset(tz: string): ZoneOffset {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' });
  return (t) => {
    const p: Record<string, number> = {};
    for (const part of f.formatToParts(new Date(t))) p[part.type] = Number(part.value);
    const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!);
    return wall - (t - (((t % 1000) + 1000) % 1000));
  };
}

/** The offset function of a valid zone name (see `isTimeZone`), cached per zone. */
export function zoneOffset(tz: string): ZoneOffset {
  let f = offsets.get(tz);
  if (!f) {
    const rules = UTC_NAMES.has(tz) ? null : systemZoneRules(tz);
    f = UTC_NAMES.has(tz) ? () => 0 : rules ? (t) => offsetAt(rules, t) : intlOffset(tz);
    offsets.set(tz, f);
  }
  return f;
}

/**
 * Whether `tz` names a time zone: one of Intl's canonical names, one the system's tz database has a
 * file for, or (only then, at the cost of ICU's locale data) one `Intl.DateTimeFormat` accepts.
 */
export function isTimeZone(tz: string): boolean {
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonical.has(tz) || UTC_NAMES.has(tz) || (AREA_LOCATION.test(tz) && systemZoneRules(tz))) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone this computer is set to: `TZ` when it names a zone, else the target of /etc/localtime
 * (Linux, macOS), else what Intl detects. The UTC aliases all read as `UTC`.
 */
export function systemTimeZone(env: Record<string, string | undefined> = process.env, localtime = '/etc/localtime'): string {
  const named = (tz: string | undefined) => {
    const name = tz?.trim().replace(/^:/, '');
    return name && isTimeZone(name) ? (UTC_NAMES.has(name) ? 'UTC' : name) : null;
  };
  const fromEnv = named(env.TZ);
  if (fromEnv) return fromEnv;
  try {
    const target = nodeFs()?.readlinkSync(localtime) ?? '';
    const at = target.lastIndexOf('zoneinfo/');
    const fromLink = at >= 0 ? named(target.slice(at + 'zoneinfo/'.length)) : null;
    if (fromLink) return fromLink;
  } catch {
    // not a link (or none): ask Intl
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
