import fs from 'node:fs';
import path from 'node:path';

/** comskip reads at most about this many bytes of its INI; the forced copy never grows past it. */
export const COMSKIP_INI_READ_LIMIT = 60_000;

/** The configuration in use: `detector.ini` in the config directory wins, else the bundled default. */
export function resolveDetectorConfig(configDir: string, bundledIni: string): { path: string; source: 'user' | 'bundled' } {
  const user = path.join(configDir, 'detector.ini');
  return fs.existsSync(user) ? { path: user, source: 'user' } : { path: bundledIni, source: 'bundled' };
}

/**
 * The INI comskip actually reads: `output_edl=1` as the very first line, and every other mention of
 * `output_edl` in the user's text (a setting, a comment, anything) neutralised. comskip takes the
 * FIRST `key=` text it finds anywhere, even inside a comment, so appending the key (what a naive
 * reading of "force it on" does) can be silently ignored. The result stays within comskip's read
 * limit (the tail of an oversized file is dropped: comskip would not have read it either).
 */
export function forcedIniText(userText: string): string {
  const body = userText.replace(/output_edl/gi, 'x_output_edl_overridden');
  const head = '; edit-list output forced on by the recording sync\noutput_edl=1\n';
  return head + body.slice(0, COMSKIP_INI_READ_LIMIT - head.length - 1) + '\n';
}

/** Writes the forced copy of `sourceIni` to `destIni` (a temporary file in the work directory). */
export function writeForcedIni(sourceIni: string, destIni: string): void {
  const fd = fs.openSync(sourceIni, 'r');
  try {
    const buf = Buffer.alloc(COMSKIP_INI_READ_LIMIT);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    fs.writeFileSync(destIni, forcedIniText(buf.subarray(0, n).toString('latin1')), 'latin1');
  } finally {
    fs.closeSync(fd);
  }
}
