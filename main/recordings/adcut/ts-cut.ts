import fs from 'node:fs';
import type { Span } from './breaks.js';
import { NO_PES_HEADER, readTimestamp, rewritePacket } from './ts-join.js';

/**
 * The recording is a kind of MPEG-TS this cutter does not handle (not 188-byte packets, several
 * programmes, a PMT over several packets, no keyframe found near a cut point, …): the caller falls
 * back to cutting with ffmpeg. Nothing about the source is wrong, and it has not been touched.
 */
export class TsCutUnsupported extends Error {}

export interface TsCutInput {
  source: string;
  output: string;
  /** Keep segments in seconds from the start of the recording (`start_time`), sorted, not overlapping. */
  keep: readonly Span[];
  /** The recording's `start_time` (seconds, as ffprobe gives it): where second 0 of `keep` is. */
  startTime: number;
  /** The container duration (seconds): a keep segment ending there runs to the end of the file. */
  duration: number;
  signal?: AbortSignal;
  /** Called as each keep segment starts being copied (1-based). */
  onSegment?(index: number, count: number): void;
}

export interface TsCutResult {
  /** Where each copied segment starts and ends, snapped to keyframes (seconds, as `keep`). */
  segments: Span[];
  bytesWritten: number;
}

const PACKET = 188;
const READ_PACKETS = 16_384; // ~3 MiB a read
const WRAP = 2 ** 33;
const HZ = 90_000;
/** Packets held back near a cut point until the keyframe that settles it arrives (~19 MB). */
export const MAX_HELD_PACKETS = 100_000;
/** How far a cut point may move to the next keyframe (90 kHz ticks); broadcast GOPs last 0.5-2 s. */
const MAX_SNAP = 5 * HZ;
/** A larger step between two video timestamps is a discontinuity, not a gap (90 kHz ticks). */
const MAX_VIDEO_GAP = 10 * HZ;

const enum Kind {
  None = 0,
  Video = 1,
  Audio = 2,
  Subtitle = 3,
  /** A PCR carried on its own PID: kept while the video is kept. */
  Pcr = 4,
}
const enum Codec {
  Other = 0,
  Mpeg2 = 1,
  H264 = 2,
  Hevc = 3,
}

const VIDEO_TYPES = new Set([0x01, 0x02, 0x10, 0x1b, 0x24, 0x42, 0xd1, 0xea]);
const AUDIO_TYPES = new Set([0x03, 0x04, 0x0f, 0x11, 0x1c, 0x81, 0x82, 0x83, 0x84, 0x87]);
/** Descriptors that make a private-PES stream (type 0x06) audio: AC-3, E-AC-3, DTS, AAC (DVB). */
const AUDIO_DESCRIPTORS = new Set([0x6a, 0x7a, 0x7b, 0x7c]);
/** Descriptors that make it a subtitle stream: DVB subtitling, teletext. */
const SUBTITLE_DESCRIPTORS = new Set([0x59, 0x56]);
const AUDIO_REGISTRATIONS = new Set(['AC-3', 'EAC3', 'DTS1', 'DTS2', 'DTS3', 'Opus']);

/** What a PMT entry is, as `-map 0:v -map 0:a -map 0:s?` would choose (anything else is dropped). */
function classify(type: number, descriptors: Buffer): Kind {
  if (VIDEO_TYPES.has(type)) return Kind.Video;
  if (AUDIO_TYPES.has(type)) return Kind.Audio;
  if (type !== 0x06) return Kind.None;
  for (let i = 0; i + 2 <= descriptors.length; i += 2 + descriptors[i + 1]!) {
    const tag = descriptors[i]!;
    if (AUDIO_DESCRIPTORS.has(tag)) return Kind.Audio;
    if (SUBTITLE_DESCRIPTORS.has(tag)) return Kind.Subtitle;
    if (tag === 0x05 && AUDIO_REGISTRATIONS.has(descriptors.toString('latin1', i + 2, i + 6))) return Kind.Audio;
  }
  return Kind.None;
}

/** CRC-32/MPEG-2 of a PSI section. */
export function crc32Mpeg(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) {
    crc ^= byte << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? ((crc << 1) ^ 0x04c11db7) >>> 0 : (crc << 1) >>> 0;
  }
  return crc >>> 0;
}

/** Whether the PES starting in this packet begins a picture a decoder can start from. */
function startsKeyframe(b: Buffer, p: number, esStart: number, codec: Codec): boolean {
  const afc = (b[p + 3]! >> 4) & 3;
  // random_access_indicator: ffmpeg's muxer and most broadcasters set it on keyframes.
  if (afc & 2 && b[p + 4]! > 0 && b[p + 5]! & 0x40) return true;
  const end = p + PACKET;
  for (let i = esStart; i + 4 < end; i++) {
    if (b[i] !== 0 || b[i + 1] !== 0 || b[i + 2] !== 1) continue;
    const v = b[i + 3]!;
    if (codec === Codec.H264) {
      const type = v & 0x1f;
      if (type === 5 || type === 7) return true; // IDR slice, sequence parameter set
      if (type === 9) return b[i + 4]! >> 5 === 0; // access unit delimiter: I slices only
      if (type === 1) return false; // a non-IDR slice comes first
    } else if (codec === Codec.Hevc) {
      const type = (v >> 1) & 0x3f;
      if ((type >= 16 && type <= 21) || (type >= 32 && type <= 33)) return true; // IRAP, VPS/SPS
      if (type === 35) return b[i + 5]! >> 5 === 0; // AUD: I slices only
      if (type < 32) return false;
    } else if (codec === Codec.Mpeg2) {
      if (v === 0xb3 || v === 0xb8) return true; // sequence header, GOP header
      if (v === 0x00 && i + 5 < end) return ((b[i + 5]! >> 3) & 7) === 1; // picture header: I picture
    } else {
      return false;
    }
    i += 2;
  }
  return false;
}

/** One PES's fate: copied with `shift` (90 kHz ticks) or dropped; `held` until the keyframe that settles it is read. */
interface Fate {
  keep: boolean;
  shift: number;
  held: boolean;
  /** Where the PES starts and (audio: about) ends, in unwrapped 90 kHz ticks. */
  from: number;
  to: number;
}

const DROP: Fate = { keep: false, shift: 0, held: false, from: 0, to: 0 };

/**
 * Cuts an MPEG-TS recording in one sequential read by copying packets: no ffmpeg, no intermediate
 * files. Each keep segment runs from the first video keyframe at or after its start to the first
 * keyframe at or after its end (whole GOPs in decode order, so every kept picture decodes); audio and
 * subtitle PES packets are kept when they lie wholly inside a kept stretch, by their own timestamps,
 * so the sound stays in sync. Each segment's PCR, PTS and DTS move by one offset so the timeline runs
 * on without a jump (as ffmpeg's concat demuxer places files) and continuity counters run on per PID.
 * Video, audio and subtitle streams are kept; other PIDs (data, EIT, null packets) are dropped and
 * the PMT rewritten without them. The output starts with the PAT and PMT. Packets whose fate depends
 * on a keyframe not yet read (audio just past a cut point) wait, bounded by `MAX_HELD_PACKETS`.
 *
 * Throws `TsCutUnsupported` for a stream it does not handle; any other error is the output's (a full
 * disk, an abort). The source is only read.
 */
export async function cutTs(input: TsCutInput): Promise<TsCutResult> {
  const { keep } = input;
  const startTicks = Math.round(input.startTime * HZ);
  // Cut points in unwrapped ticks: in, out, in, out, …; a segment from 0 has no in point, one to the end no out point.
  const bounds: number[] = [];
  keep.forEach((k, i) => {
    bounds.push(i === 0 && k.start <= 0 ? -Infinity : startTicks + Math.round(k.start * HZ));
    if (i < keep.length - 1 || k.end < input.duration) bounds.push(startTicks + Math.round(k.end * HZ));
  });
  // Where each cut point landed (the keyframe that settled it) and each segment's clock offset.
  const cuts: number[] = [];
  const shifts: number[] = [];
  let base = 0;
  let kept = 0;
  let current: Fate = DROP;

  let ref = startTicks;
  const unwrap = (raw: number) => {
    const v = raw + Math.round((ref - raw) / WRAP) * WRAP;
    ref = v;
    return v;
  };

  // Programme tables.
  let pmtPid = -1;
  let pmtRaw: Buffer | null = null;
  let pmtOut: Buffer | null = null;
  let patOut: Buffer | null = null;
  let videoPid = -1;
  const kinds = new Uint8Array(8192);
  const codecs = new Uint8Array(8192);
  const fates: Array<Fate | undefined> = new Array(8192);
  const lastFrom = new Float64Array(8192).fill(Number.NaN);
  const span = new Float64Array(8192);

  const src = await fs.promises.open(input.source, 'r');
  let out: fs.promises.FileHandle;
  try {
    out = await fs.promises.open(input.output, 'w');
  } catch (err) {
    await src.close();
    throw err;
  }
  const lastCc = new Int8Array(8192).fill(-1);
  const outBuf = Buffer.allocUnsafe(PACKET * READ_PACKETS);
  let outLen = 0;
  let written = 0;
  let started = false;

  const flushOut = async () => {
    if (!outLen) return;
    let at = 0;
    while (at < outLen) at += (await out.write(outBuf, at, outLen - at)).bytesWritten;
    written += outLen;
    outLen = 0;
  };
  const put = (b: Buffer, p: number, shift: number) => {
    if (!started) {
      started = true;
      for (const table of [patOut, pmtOut]) {
        if (!table) continue;
        rewritePacket(table, 0, 0, lastCc);
        table.copy(outBuf, outLen);
        outLen += PACKET;
      }
    }
    rewritePacket(b, p, shift, lastCc);
    b.copy(outBuf, outLen, p, p + PACKET);
    outLen += PACKET;
  };

  // Packets waiting for a keyframe: once one is held, everything after it waits too, so the order stays.
  let held = Buffer.allocUnsafe(PACKET * 1024);
  const heldFates: Fate[] = [];
  let heldHead = 0;
  const hold = (b: Buffer, p: number, fate: Fate) => {
    const n = heldFates.length;
    if (n >= MAX_HELD_PACKETS) throw new TsCutUnsupported('no video keyframe found near a cut point');
    if ((n + 1) * PACKET > held.length) {
      const bigger = Buffer.allocUnsafe(held.length * 2);
      held.copy(bigger, 0, 0, n * PACKET);
      held = bigger;
    }
    b.copy(held, n * PACKET, p, p + PACKET);
    heldFates.push(fate);
  };

  /** The fate of a PES spanning [from, to) once every cut point up to `to` is settled. */
  const settle = (fate: Fate) => {
    let count = 0;
    while (count < cuts.length && cuts[count]! <= fate.from) count++;
    const j = (count - 1) >> 1;
    const outAt = cuts[2 * j + 1] ?? Infinity;
    fate.keep = (count & 1) === 1 && fate.to <= outAt;
    fate.shift = fate.keep ? shifts[j]! : 0;
    fate.held = false;
  };
  const unsettled = (to: number) => cuts.length < bounds.length && to >= bounds[cuts.length]!;
  const release = async (all: boolean) => {
    for (let i = heldHead; i < heldFates.length; i++) {
      const f = heldFates[i]!;
      if (f.held && (all || !unsettled(f.to))) settle(f);
    }
    while (heldHead < heldFates.length && !heldFates[heldHead]!.held) {
      const f = heldFates[heldHead]!;
      if (f.keep) {
        put(held, heldHead * PACKET, f.shift);
        if (outLen === outBuf.length) await flushOut();
      }
      heldHead++;
    }
    if (heldHead === heldFates.length) {
      heldFates.length = 0;
      heldHead = 0;
    }
  };

  /** A video keyframe at `pts`: settles every cut point it reaches. */
  const keyframe = (pts: number) => {
    let moved = false;
    while (cuts.length < bounds.length && bounds[cuts.length]! <= pts) {
      const k = cuts.length;
      if (Number.isFinite(bounds[k]) && pts - bounds[k]! > MAX_SNAP) throw new TsCutUnsupported('the first keyframe after a cut point is too far from it');
      cuts.push(pts);
      moved = true;
      if (k % 2 === 0) {
        const j = k / 2;
        if (j === 0) base = pts;
        shifts.push(base + kept - pts);
        input.onSegment?.(j + 1, keep.length);
      } else {
        kept += pts - cuts[k - 1]!;
      }
    }
    if (moved) current = cuts.length % 2 === 1 ? { keep: true, shift: shifts[shifts.length - 1]!, held: false, from: pts, to: pts } : DROP;
    return moved;
  };

  const parsePat = (b: Buffer, s: number, end: number) => {
    if (b[s] !== 0x00) return;
    const sectionEnd = s + 3 + (((b[s + 1]! & 0x0f) << 8) | b[s + 2]!);
    if (sectionEnd > end) throw new TsCutUnsupported('the PAT spans several packets');
    let found = -1;
    for (let i = s + 8; i + 4 <= sectionEnd - 4; i += 4) {
      const programme = (b[i]! << 8) | b[i + 1]!;
      if (programme === 0) continue;
      if (found >= 0) throw new TsCutUnsupported('several programmes in one recording');
      found = ((b[i + 2]! & 0x1f) << 8) | b[i + 3]!;
    }
    if (found < 0) return;
    if (pmtPid >= 0 && found !== pmtPid) throw new TsCutUnsupported('the PMT moved to another PID');
    pmtPid = found;
  };

  /** Reads the PMT (each new version) and rebuilds it without the dropped streams. */
  const parsePmt = (b: Buffer, p: number, s: number, end: number): Buffer | null => {
    if (b[s] !== 0x02) return null;
    const sectionEnd = s + 3 + (((b[s + 1]! & 0x0f) << 8) | b[s + 2]!);
    if (sectionEnd > end) throw new TsCutUnsupported('the PMT spans several packets');
    const raw = b.subarray(s, sectionEnd);
    if (pmtRaw && raw.equals(pmtRaw)) return pmtOut;
    pmtRaw = Buffer.from(raw);
    const infoEnd = s + 12 + (((b[s + 10]! & 0x0f) << 8) | b[s + 11]!);
    const pcrPid = ((b[s + 8]! & 0x1f) << 8) | b[s + 9]!;
    const parts: Buffer[] = [Buffer.from(b.subarray(s, infoEnd))];
    kinds.fill(Kind.None);
    let video = -1;
    for (let i = infoEnd; i + 5 <= sectionEnd - 4; ) {
      const type = b[i]!;
      const pid = ((b[i + 1]! & 0x1f) << 8) | b[i + 2]!;
      const len = ((b[i + 3]! & 0x0f) << 8) | b[i + 4]!;
      const kind = classify(type, b.subarray(i + 5, Math.min(i + 5 + len, sectionEnd - 4)));
      if (kind === Kind.Video && video >= 0) {
        // A second video stream: copied like the first (its GOPs may not line up, so no keyframe rules apply to it).
        kinds[pid] = Kind.Subtitle;
      } else {
        kinds[pid] = kind;
      }
      if (kind === Kind.Video && video < 0) video = pid;
      codecs[pid] = type === 0x1b ? Codec.H264 : type === 0x24 ? Codec.Hevc : type === 0x01 || type === 0x02 ? Codec.Mpeg2 : Codec.Other;
      if (kind !== Kind.None) parts.push(Buffer.from(b.subarray(i, i + 5 + len)));
      i += 5 + len;
    }
    if (video < 0) throw new TsCutUnsupported('no video stream in the PMT');
    if (videoPid >= 0 && video !== videoPid) throw new TsCutUnsupported('the video stream moved to another PID');
    videoPid = video;
    if (pcrPid !== 0x1fff && kinds[pcrPid] === Kind.None) kinds[pcrPid] = Kind.Pcr;
    const section = Buffer.concat(parts);
    const full = Buffer.alloc(section.length + 4);
    section.copy(full);
    const length = full.length - 3;
    full[1] = (full[1]! & 0xf0) | ((length >> 8) & 0x0f);
    full[2] = length & 0xff;
    full.writeUInt32BE(crc32Mpeg(full.subarray(0, full.length - 4)), full.length - 4);
    const packet = Buffer.alloc(PACKET, 0xff);
    packet[0] = 0x47;
    packet[1] = b[p + 1]!;
    packet[2] = b[p + 2]!;
    packet[3] = 0x10 | (b[p + 3]! & 0x0f);
    packet[4] = 0; // pointer field
    full.copy(packet, 5);
    pmtOut = packet;
    return packet;
  };

  /** Decides one packet; returns its fate. */
  const decide = (b: Buffer, p: number): Fate => {
    const pid = ((b[p + 1]! & 0x1f) << 8) | b[p + 2]!;
    const pusi = (b[p + 1]! & 0x40) !== 0;
    const afc = (b[p + 3]! >> 4) & 3;
    const payload = afc & 2 ? p + 5 + b[p + 4]! : p + 4;
    const end = p + PACKET;
    if (pid === 0 || pid === pmtPid) {
      if (!(afc & 1) || payload >= end) return current.keep ? current : DROP;
      if (!pusi) throw new TsCutUnsupported('programme tables span several packets');
      const s = payload + 1 + b[payload]!;
      if (s + 12 > end) throw new TsCutUnsupported('programme tables span several packets');
      if (pid === 0) {
        parsePat(b, s, end);
        patOut = Buffer.from(b.subarray(p, end));
        return current.keep ? current : DROP;
      }
      const table = parsePmt(b, p, s, end);
      if (!table) return DROP;
      table.copy(b, p); // the rewritten PMT goes out in its place (its continuity counter is set on output)
      return current.keep ? current : DROP;
    }
    if (pid === 0x11) return current.keep ? current : DROP; // SDT: the service name
    const kind = kinds[pid]!;
    if (kind === Kind.None) return DROP;
    if (kind === Kind.Pcr) return current.keep ? current : DROP;
    if (!pusi) return fates[pid] ?? DROP;
    // A PES starts here: its timestamp decides it.
    let pts = Number.NaN;
    let esStart = end;
    if (afc & 1 && payload + 9 <= end && b[payload] === 0 && b[payload + 1] === 0 && b[payload + 2] === 1 && !NO_PES_HEADER[b[payload + 3]!]) {
      esStart = payload + 9 + b[payload + 8]!;
      if (b[payload + 7]! & 0x80 && payload + 14 <= end) pts = unwrap(readTimestamp(b, payload + 9));
    }
    if (Number.isNaN(pts)) pts = Number.isNaN(lastFrom[pid]!) ? ref : lastFrom[pid]!;
    let fate: Fate;
    if (kind === Kind.Video && pid === videoPid) {
      // A clock jump (a broadcast glitch) makes seconds from the start meaningless: ffmpeg decides.
      if (Math.abs(pts - lastFrom[pid]!) > MAX_VIDEO_GAP) throw new TsCutUnsupported('the video clock jumps');
      if (startsKeyframe(b, p, esStart, codecs[pid] as Codec)) keyframe(pts);
      fate = current;
    } else {
      // Audio: about one PES long (the last gap on this PID), so it never overlaps the next segment.
      const gap = pts - lastFrom[pid]!;
      if (kind === Kind.Audio && gap > 0 && gap < HZ) span[pid] = gap;
      fate = { keep: false, shift: 0, held: true, from: pts, to: pts + (kind === Kind.Audio ? span[pid]! : 0) };
      if (!unsettled(fate.to)) settle(fate);
    }
    lastFrom[pid] = pts;
    fates[pid] = fate;
    return fate;
  };

  try {
    const buf = Buffer.allocUnsafe(PACKET * READ_PACKETS);
    let carry = 0;
    let first = true;
    for (;;) {
      if (input.signal?.aborted) throw new Error('interrupted: the service stopped');
      const { bytesRead } = await src.read(buf, carry, buf.length - carry, null);
      const have = carry + bytesRead;
      const whole = have - (have % PACKET);
      if (first) {
        first = false;
        if (whole < PACKET * 3 || buf[0] !== 0x47 || buf[PACKET] !== 0x47 || buf[2 * PACKET] !== 0x47) {
          throw new TsCutUnsupported('not an MPEG-TS stream of 188-byte packets');
        }
      }
      for (let p = 0; p < whole; p += PACKET) {
        if (buf[p] !== 0x47) throw new TsCutUnsupported('lost MPEG-TS packet sync');
        const before = cuts.length;
        const fate = decide(buf, p);
        if (cuts.length !== before && heldFates.length) await release(false);
        // Dropped packets need no place in the queue: only the order of the kept ones matters.
        if (fate.held || (fate.keep && heldFates.length)) hold(buf, p, fate);
        else if (fate.keep) put(buf, p, fate.shift);
        if (outLen === outBuf.length) await flushOut();
      }
      carry = have - whole;
      if (carry) buf.copy(buf, 0, whole, have);
      if (bytesRead === 0) break; // a torn last packet is left out
    }
    if (videoPid < 0) throw new TsCutUnsupported('no programme map with a video stream found');
    // A cut point the picture ran past without a keyframe (a segment never started, or an ad kept to the end): ffmpeg decides.
    if (cuts.length < bounds.length && lastFrom[videoPid]! - bounds[cuts.length]! > MAX_SNAP) throw new TsCutUnsupported('no video keyframe after a cut point');
    // The end of the file settles the cut points no keyframe reached: an open segment runs to the end.
    await release(true);
    await flushOut();
  } finally {
    await src.close();
    await out.close();
  }
  const segments: Span[] = [];
  for (let k = 0; k < cuts.length; k += 2) {
    const from = cuts[k]!;
    const to = cuts[k + 1] ?? ref;
    segments.push({ start: (from - startTicks) / HZ, end: (to - startTicks) / HZ });
  }
  return { segments, bytesWritten: written };
}
