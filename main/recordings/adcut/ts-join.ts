import fs from 'node:fs';

/** One extracted segment: its path and where its timeline starts and how long it lasts (ffprobe). */
export interface JoinPart {
  path: string;
  start: number;
  duration: number;
}

const PACKET = 188;
const CHUNK_PACKETS = 8192;
const WRAP = 2 ** 33;
const TWO_30 = 2 ** 30;
const TWO_25 = 2 ** 25;

const wrap33 = (v: number) => ((v % WRAP) + WRAP) % WRAP;

/** Stream ids whose PES packets carry no optional header (no PTS/DTS): program stream map, padding, private 2, ECM, EMM, directory, DSMCC, H.222.1 E. */
export const NO_PES_HEADER = new Uint8Array(256);
for (const id of [0xbc, 0xbe, 0xbf, 0xf0, 0xf1, 0xff, 0xf2, 0xf8]) NO_PES_HEADER[id] = 1;

/** Reads a 33-bit PTS/DTS field (5 bytes with marker bits). */
export function readTimestamp(b: Buffer, at: number): number {
  return ((b[at]! >> 1) & 7) * TWO_30 + ((b[at + 1]! << 22) | ((b[at + 2]! >> 1) << 15) | (b[at + 3]! << 7) | (b[at + 4]! >> 1));
}

/** Writes a 33-bit PTS/DTS field, keeping the 4-bit prefix and the marker bits. */
function writeTimestamp(b: Buffer, at: number, v: number): void {
  const high = Math.floor(v / TWO_30) & 7;
  const low = v % TWO_30;
  b[at] = (b[at]! & 0xf0) | (high << 1) | 1;
  b[at + 1] = (low >> 22) & 0xff;
  b[at + 2] = (((low >> 15) & 0x7f) << 1) | 1;
  b[at + 3] = (low >> 7) & 0xff;
  b[at + 4] = ((low & 0x7f) << 1) | 1;
}

/** Appends segments one by one (so joining can run while the next segment is being extracted). */
export interface TsJoiner {
  append(part: JoinPart, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/**
 * Concatenates MPEG-TS segments written by ffmpeg's mpegts muxer by copying their packets and
 * shifting each segment's clock so the timeline runs on without a jump, the way ffmpeg's concat
 * demuxer places files (segment i starts where the previous ones' durations end): PCR, PTS and DTS
 * move by the same offset (90 kHz, modulo 2^33) and continuity counters run on per PID. No
 * remultiplexing: one sequential copy with bounded memory. `append` throws on anything that is not TS.
 */
export async function openTsJoiner(output: string): Promise<TsJoiner> {
  const out = await fs.promises.open(output, 'w');
  // The last continuity counter written per PID (-1: none yet).
  const lastCc = new Int8Array(8192).fill(-1);
  const buf = Buffer.allocUnsafe(PACKET * CHUNK_PACKETS);
  let timeline = 0;
  let base: number | null = null;
  return {
    async append(part, signal) {
      base ??= part.start;
      const shift = Math.round((timeline + base - part.start) * 90_000);
      timeline += part.duration;
      const input = await fs.promises.open(part.path, 'r');
      try {
        let carry = 0;
        for (;;) {
          if (signal?.aborted) throw new Error('interrupted');
          const { bytesRead } = await input.read(buf, carry, buf.length - carry, null);
          const have = carry + bytesRead;
          const whole = have - (have % PACKET);
          for (let p = 0; p < whole; p += PACKET) rewritePacket(buf, p, shift, lastCc);
          if (whole) await out.write(buf, 0, whole);
          carry = have - whole;
          if (carry) buf.copy(buf, 0, whole, have);
          if (bytesRead === 0) {
            if (carry) throw new Error(`${part.path} does not end on a TS packet boundary`);
            break;
          }
        }
      } finally {
        await input.close();
      }
    },
    close: () => out.close(),
  };
}

/** Joins all `parts` into `output` (see `openTsJoiner`). */
export async function joinTsSegments(parts: readonly JoinPart[], output: string, signal?: AbortSignal): Promise<void> {
  const joiner = await openTsJoiner(output);
  try {
    for (const part of parts) await joiner.append(part, signal);
  } finally {
    await joiner.close();
  }
}

/**
 * Rewrites one packet in place for its place in the output: PCR, PTS and DTS moved by `shift` (90 kHz,
 * modulo 2^33) and the continuity counter run on from the last one written on its PID (`lastCc`).
 */
export function rewritePacket(b: Buffer, p: number, shift: number, lastCc: Int8Array): void {
  if (b[p] !== 0x47) throw new Error('not an MPEG-TS stream (lost packet sync)');
  const pid = ((b[p + 1]! & 0x1f) << 8) | b[p + 2]!;
  if (pid === 0x1fff) return; // null packet
  const afc = (b[p + 3]! >> 4) & 3;
  const hasPayload = (afc & 1) !== 0;
  const prev = lastCc[pid]!;
  if (hasPayload) {
    const cc = prev < 0 ? b[p + 3]! & 0x0f : (prev + 1) & 0x0f;
    b[p + 3] = (b[p + 3]! & 0xf0) | cc;
    lastCc[pid] = cc;
  } else if (prev >= 0) {
    b[p + 3] = (b[p + 3]! & 0xf0) | prev;
  }
  let payload = p + 4;
  if (afc & 2) {
    const len = b[p + 4]!;
    if (len > 0 && b[p + 5]! & 0x10 && len >= 7) {
      // PCR: 33-bit base (90 kHz) + 6 reserved bits + 9-bit extension.
      const at = p + 6;
      const pcr = b[at]! * TWO_25 + ((b[at + 1]! << 17) | (b[at + 2]! << 9) | (b[at + 3]! << 1) | (b[at + 4]! >> 7));
      const v = wrap33(pcr + shift);
      const rem = v % TWO_25;
      b[at] = Math.floor(v / TWO_25) & 0xff;
      b[at + 1] = (rem >> 17) & 0xff;
      b[at + 2] = (rem >> 9) & 0xff;
      b[at + 3] = (rem >> 1) & 0xff;
      b[at + 4] = ((rem & 1) << 7) | (b[at + 4]! & 0x7f);
    }
    payload = p + 5 + len;
  }
  // A PES header starts here (PSI sections never begin with the 00 00 01 start code).
  const end = p + PACKET;
  if (!(b[p + 1]! & 0x40) || !hasPayload || payload + 14 > end) return;
  if (b[payload] !== 0 || b[payload + 1] !== 0 || b[payload + 2] !== 1) return;
  if (NO_PES_HEADER[b[payload + 3]!]) return;
  const flags = b[payload + 7]! >> 6;
  if (flags & 2) writeTimestamp(b, payload + 9, wrap33(readTimestamp(b, payload + 9) + shift));
  if (flags === 3 && payload + 19 <= end) writeTimestamp(b, payload + 14, wrap33(readTimestamp(b, payload + 14) + shift));
}
