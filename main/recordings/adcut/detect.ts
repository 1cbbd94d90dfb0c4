import fs from 'node:fs';
import path from 'node:path';
import { parseEdl, type Span } from './breaks.js';
import { writeForcedIni } from './detector-config.js';
import { lastLine, runTool, type AdTools } from './tools.js';

/** The scan's niceness (lowered priority). */
export const SCAN_NICENESS = 10;
const MINUTE = 60_000;
export const SCAN_TIMEOUT_FLOOR_MS = 60 * MINUTE;
export const SCAN_TIMEOUT_CAP_MS = 6 * 60 * MINUTE;

/**
 * The scan timeout: 1.5 x the recording's duration, at least 60 minutes, at most 6 hours. When the
 * duration cannot be read, the cap (a long recording must not be cut short by a guess).
 */
export function scanTimeoutMs(durationSeconds: number | null): number {
  if (durationSeconds === null) return SCAN_TIMEOUT_CAP_MS;
  return Math.min(SCAN_TIMEOUT_CAP_MS, Math.max(SCAN_TIMEOUT_FLOOR_MS, durationSeconds * 1.5 * 1000));
}

/** Detection produced no usable edit list (timeout, crash, unreadable output): `detect_failed`. */
export class DetectFailed extends Error {}

export interface DetectInput {
  tools: AdTools;
  /** The resolved detector configuration (user or bundled); a forced copy is what comskip reads. */
  iniSource: string;
  file: string;
  /** A private work folder (comskip writes its edit list and logs there). */
  workDir: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Runs comskip at niceness 10 on a temporary copy of the configuration with edit-list output forced
 * on, and parses the edit list. Returns the breaks (empty: none found). comskip's exit code 0/1
 * ("found" / "none") is not trusted: the edit list decides. Throws `DetectFailed` otherwise.
 */
export async function detectBreaks(input: DetectInput): Promise<Span[]> {
  const { tools, workDir } = input;
  const ini = path.join(workDir, 'detector.ini');
  try {
    writeForcedIni(input.iniSource, ini);
  } catch (err) {
    throw new DetectFailed(`cannot read the detector configuration: ${(err as Error).message}`);
  }
  const comskipArgs = [`--ini=${ini}`, `--output=${workDir}`, input.file];
  const opts = { timeoutMs: input.timeoutMs, signal: input.signal, cwd: workDir };
  const r = tools.nice
    ? await runTool(tools, tools.nice, ['-n', String(SCAN_NICENESS), tools.comskip, ...comskipArgs], opts)
    : await runTool(tools, tools.comskip, comskipArgs, { ...opts, niceness: SCAN_NICENESS });
  if (r.timedOut) throw new DetectFailed(`the detector did not finish within ${Math.round(input.timeoutMs / 1000)} s`);
  if (input.signal?.aborted) throw new DetectFailed('interrupted: the service stopped');
  if (r.code === null) throw new DetectFailed(`the detector was killed (${r.signal ?? 'no exit code'}) ${lastLine(r.stderr)}`.trim());
  if (r.code !== 0 && r.code !== 1) throw new DetectFailed(`the detector failed with exit code ${r.code}: ${lastLine(r.stderr) || lastLine(r.stdout)}`);
  // comskip names the list after the input (its own idea of the extension): the private folder holds one.
  const edls = fs.readdirSync(workDir).filter((f) => f.endsWith('.edl'));
  if (edls.length !== 1) throw new DetectFailed(`the detector wrote ${edls.length ? 'several edit lists' : 'no edit list'}`);
  const edl = path.join(workDir, edls[0]!);
  let text: string;
  try {
    const st = fs.statSync(edl);
    if (st.size > 256 * 1024) throw new Error('edit list too large');
    text = fs.readFileSync(edl, 'utf8');
  } catch (err) {
    throw new DetectFailed(`the detector wrote no usable edit list: ${(err as Error).message}`);
  }
  try {
    return parseEdl(text);
  } catch (err) {
    throw new DetectFailed((err as Error).message);
  }
}
