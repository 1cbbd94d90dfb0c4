import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTimeZone, systemTimeZone, systemZoneRules, zoneOffset } from './time-zone.js';
import { offsetAt, parsePosixTz, parseTzif, posixOffsetAt } from './tzif.js';

const ZONEINFO = '/usr/share/zoneinfo';
const hasTzdata = fs.existsSync(path.join(ZONEINFO, 'Europe/Paris'));
if (!hasTzdata) console.warn(`tzif.test: skipping the tests against the system's tz database: ${ZONEINFO} has no Europe/Paris (install tzdata)`);

const HOUR = 3_600_000;
const YEAR = 365.2425 * 86_400_000;

describe('TZif files of the system tz database', () => {
  // No comparison with ICU here: the system's tzdata and Node's ICU are different releases, and a
  // zone whose rules changed between them differs (America/Bogota in 1992 on Node 24.22). The
  // expected offsets are facts both have agreed on for years.
  it.skipIf(!hasTzdata)('reads table transitions: New York, Sydney, Paris, Kolkata at known instants', () => {
    const off = (tz: string, iso: string) => offsetAt(systemZoneRules(tz, ZONEINFO)!, Date.parse(iso)) / 60_000;
    // 2026: New York springs forward on 8 March at 07:00 UTC, Sydney falls back on 5 April at 03:00 local (16:00 UTC on the 4th).
    expect(off('America/New_York', '2026-03-08T06:59:59Z')).toBe(-300);
    expect(off('America/New_York', '2026-03-08T07:00:00Z')).toBe(-240);
    expect(off('Australia/Sydney', '2026-04-04T15:59:59Z')).toBe(660);
    expect(off('Australia/Sydney', '2026-04-04T16:00:00Z')).toBe(600);
    // 1996: the EU's last-Sunday-of-October rule began; Paris went back to +1 at 01:00 UTC on 27 October.
    expect(off('Europe/Paris', '1996-10-27T00:59:59Z')).toBe(120);
    expect(off('Europe/Paris', '1996-10-27T01:00:00Z')).toBe(60);
    expect(off('Asia/Kolkata', '1990-06-01T00:00:00Z')).toBe(330);
  });

  it.skipIf(!hasTzdata)('the switch instants themselves: Sydney goes to +11 at 02:00 local on the first Sunday of October, back at 03:00 on the first Sunday of April', () => {
    const rules = systemZoneRules('Australia/Sydney', ZONEINFO)!;
    // 2090: far past the file's table, from the POSIX rule alone.
    const on = Date.UTC(2090, 9, 1, 2) - 10 * HOUR; // Sunday 1 October 2090, 02:00 AEST
    expect(new Date(Date.UTC(2090, 9, 1)).getUTCDay()).toBe(0);
    expect(offsetAt(rules, on - 1)).toBe(10 * HOUR);
    expect(offsetAt(rules, on)).toBe(11 * HOUR);
    const off = Date.UTC(2090, 3, 2, 3) - 11 * HOUR; // Sunday 2 April 2090, 03:00 AEDT
    expect(new Date(Date.UTC(2090, 3, 2)).getUTCDay()).toBe(0);
    expect(offsetAt(rules, off - 1)).toBe(11 * HOUR);
    expect(offsetAt(rules, off)).toBe(10 * HOUR);
  });
});

describe('POSIX TZ strings', () => {
  const at = (rule: string, iso: string) => posixOffsetAt(parsePosixTz(rule), Date.parse(iso)) / 60_000;

  it('reads offsets west-positive, with names in angle brackets and minutes', () => {
    expect(at('<+0530>-5:30', '2030-06-01T00:00:00Z')).toBe(330);
    expect(at('EST5', '2030-06-01T00:00:00Z')).toBe(-300);
    expect(at('<-0930>9:30', '2030-06-01T00:00:00Z')).toBe(-570);
  });

  it('northern rules: EST5EDT,M3.2.0,M11.1.0 (second Sunday of March to first Sunday of November, 02:00)', () => {
    const r = 'EST5EDT,M3.2.0,M11.1.0';
    expect(at(r, '2030-03-10T06:59:59Z')).toBe(-300);
    expect(at(r, '2030-03-10T07:00:00Z')).toBe(-240);
    expect(at(r, '2030-11-03T05:59:59Z')).toBe(-240);
    expect(at(r, '2030-11-03T06:00:00Z')).toBe(-300);
  });

  it('southern rules wrap the year: AEST-10AEDT,M10.1.0,M4.1.0/3', () => {
    const r = 'AEST-10AEDT,M10.1.0,M4.1.0/3';
    expect(at(r, '2030-01-15T00:00:00Z')).toBe(660);
    expect(at(r, '2030-07-15T00:00:00Z')).toBe(600);
    expect(at(r, '2030-12-31T23:00:00Z')).toBe(660);
  });

  it('the fifth week means the last; times may be negative or past 24 h; Julian days skip 29 February', () => {
    // Greenland: the last Sunday of March at -1:00 (23:00 on the Saturday, standard time: 01:00 UTC)
    // to the last Sunday of October at 0:00 daylight time. 31 March 2030 is the last Sunday.
    const nuuk = '<-02>2<-01>,M3.5.0/-1,M10.5.0/0';
    expect(at(nuuk, '2030-03-31T00:59:59Z')).toBe(-120);
    expect(at(nuuk, '2030-03-31T01:00:00Z')).toBe(-60);
    expect(at(nuuk, '2030-10-27T00:59:59Z')).toBe(-60);
    expect(at(nuuk, '2030-10-27T01:00:00Z')).toBe(-120);
    // Jn: day 60 is 1 March in every year; n: zero-based, day 59 is 29 February in a leap year.
    const j = parsePosixTz('XST0XDT,J60/0,J61/0');
    expect(posixOffsetAt(j, Date.UTC(2028, 1, 29, 12)) / 60_000).toBe(0);
    expect(posixOffsetAt(j, Date.UTC(2028, 2, 1, 12)) / 60_000).toBe(60);
    const n = parsePosixTz('XST0XDT,59/0,60/0');
    expect(posixOffsetAt(n, Date.UTC(2028, 1, 29, 12)) / 60_000).toBe(60);
    expect(posixOffsetAt(n, Date.UTC(2028, 2, 1, 12)) / 60_000).toBe(0);
    // 167 h: Israel's and Paraguay's style of "the day after" is written as hours past 24.
    expect(at('<-04>4<-03>,M10.1.0/0,M3.4.0/167', '2030-03-30T12:00:00Z')).toBe(-180);
  });

  it('refuses what is not a TZ string', () => {
    for (const bad of ['', 'X', 'EST', 'EST5EDT,M13.1.0,M11.1.0', 'EST5EDT,M3.2.0', 'EST5EDT,J0,J1', '<+05', 'EST5EDT,M3.2.0,M11.1.0junk']) {
      expect(() => parsePosixTz(bad), bad).toThrow(/POSIX TZ/);
    }
  });
});

describe('hostile or odd zone files and names', () => {
  it('bytes that are not a TZif file throw a plain error, whatever they hold', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const bytes = new Uint8Array(Math.floor(rand() * 300));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(rand() * 256);
      if (i % 2 === 0 && bytes.length > 44) bytes.set([0x54, 0x5a, 0x69, 0x66, 0x32]); // a TZif2 header with random counts
      expect(() => parseTzif(bytes)).toThrow(Error);
    }
  });

  it.skipIf(!hasTzdata)('a truncated real file and a leap-second file are refused; a cut-off copy never reads past its end', () => {
    const paris = fs.readFileSync(path.join(ZONEINFO, 'Europe/Paris'));
    for (const cut of [10, 44, 100, paris.length / 2, paris.length - 30]) expect(() => parseTzif(paris.subarray(0, Math.floor(cut)))).toThrow();
    if (fs.existsSync(path.join(ZONEINFO, 'right/Europe/Paris'))) expect(() => parseTzif(fs.readFileSync(path.join(ZONEINFO, 'right/Europe/Paris')))).toThrow(/leap/);
  });

  it('a name is only looked up under the zone folder: no dots, no absolute paths, nothing outside', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zones-'));
    try {
      fs.mkdirSync(path.join(dir, 'inner'));
      if (hasTzdata) fs.copyFileSync(path.join(ZONEINFO, 'Europe/Paris'), path.join(dir, 'Outside'));
      for (const name of ['../Outside', '/etc/passwd', 'inner/../../Outside', 'inner/.', '..', 'Europe/Paris\0', 'A/'.repeat(40) + 'B']) {
        expect(systemZoneRules(name, path.join(dir, 'inner')), name).toBeNull();
      }
      // A folder or an oversized file with a zone's name is not a zone.
      fs.mkdirSync(path.join(dir, 'inner', 'Folder'));
      fs.writeFileSync(path.join(dir, 'inner', 'Big'), Buffer.alloc(300 * 1024));
      expect(systemZoneRules('Folder', path.join(dir, 'inner'))).toBeNull();
      expect(systemZoneRules('Big', path.join(dir, 'inner'))).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('isTimeZone: IANA names and the UTC aliases yes; paths, nonsense and near misses no', () => {
    for (const tz of ['Australia/Sydney', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/UTC', 'Etc/GMT+5', 'Europe/Kyiv']) expect(isTimeZone(tz), tz).toBe(true);
    for (const tz of ['Mars/Olympus', '../../etc/passwd', 'Australia/sydney ', '', 'posix', 'Europe']) expect(isTimeZone(tz), tz).toBe(false);
  });

  it('zoneOffset: the same answers as ICU for a zone, UTC is 0, and a zone without a file still works through ICU', () => {
    const t = Date.UTC(2026, 0, 15, 12);
    expect(zoneOffset('Australia/Sydney')(t)).toBe(11 * HOUR);
    expect(zoneOffset('UTC')(t)).toBe(0);
    expect(zoneOffset('Etc/GMT-14')(t)).toBe(14 * HOUR);
    // An offset-only name ICU knows and the file system may lack: answered by ICU.
    expect(zoneOffset('Asia/Kolkata')(t + 0.4 * YEAR)).toBe(330 * 60_000);
  });
});

describe('the zone this computer is set to', () => {
  it('TZ first (":" prefix allowed, UTC aliases read as UTC), then the /etc/localtime link, then ICU', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'localtime-'));
    try {
      const link = path.join(dir, 'localtime');
      fs.symlinkSync('/usr/share/zoneinfo/Pacific/Auckland', link);
      expect(systemTimeZone({ TZ: 'Europe/Paris' }, link)).toBe('Europe/Paris');
      expect(systemTimeZone({ TZ: ':Europe/Paris' }, link)).toBe('Europe/Paris');
      expect(systemTimeZone({ TZ: 'Etc/UTC' }, link)).toBe('UTC');
      expect(systemTimeZone({ TZ: 'Not/A_Zone' }, link)).toBe('Pacific/Auckland');
      expect(systemTimeZone({}, link)).toBe('Pacific/Auckland');
      expect(systemTimeZone({}, path.join(dir, 'missing'))).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
