import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/harness.js';
import { joinTsSegments } from './ts-join.js';

/** One TS packet on PID 0x100 with a PCR and the start of a video PES carrying PTS and DTS. */
function pesPacket(cc: number, pts: number, dts: number, pcr: number): Buffer {
  const b = Buffer.alloc(188, 0xff);
  b[0] = 0x47;
  b[1] = 0x40 | 0x01; // payload unit start, PID high bits
  b[2] = 0x00;
  b[3] = 0x30 | cc; // adaptation + payload
  b[4] = 7; // adaptation length
  b[5] = 0x10; // PCR flag
  b[6] = Math.floor(pcr / 2 ** 25) & 0xff;
  const rem = pcr % 2 ** 25;
  b[7] = (rem >> 17) & 0xff;
  b[8] = (rem >> 9) & 0xff;
  b[9] = (rem >> 1) & 0xff;
  b[10] = ((rem & 1) << 7) | 0x7e;
  b[11] = 0;
  const p = 12;
  b.set([0, 0, 1, 0xe0, 0, 0, 0x80, 0xc0, 10], p);
  const ts = (at: number, prefix: number, v: number) => {
    const low = v % 2 ** 30;
    b[at] = (prefix << 4) | ((Math.floor(v / 2 ** 30) & 7) << 1) | 1;
    b[at + 1] = (low >> 22) & 0xff;
    b[at + 2] = (((low >> 15) & 0x7f) << 1) | 1;
    b[at + 3] = (low >> 7) & 0xff;
    b[at + 4] = ((low & 0x7f) << 1) | 1;
  };
  ts(p + 9, 3, pts);
  ts(p + 14, 1, dts);
  return b;
}

const readTs = (b: Buffer, at: number) => ((b[at]! >> 1) & 7) * 2 ** 30 + ((b[at + 1]! << 22) | ((b[at + 2]! >> 1) << 15) | (b[at + 3]! << 7) | (b[at + 4]! >> 1));
const readPcr = (b: Buffer, at: number) => b[at]! * 2 ** 25 + ((b[at + 1]! << 17) | (b[at + 2]! << 9) | (b[at + 3]! << 1) | (b[at + 4]! >> 7));

describe('joining TS segments without a remux', () => {
  const dir = tempDir('adcut-join-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('shifts PCR, PTS and DTS of each segment onto one timeline (across the 33-bit wrap) and runs continuity counters on', async () => {
    const a = path.join(dir, 'a.ts');
    const b = path.join(dir, 'b.ts');
    // Segment a starts at 1.4 s and lasts 10 s; segment b also starts at 1.4 s (its own timeline).
    fs.writeFileSync(a, Buffer.concat([pesPacket(14, 126_000, 117_000, 117_000), pesPacket(15, 1_026_000, 1_017_000, 1_017_000)]));
    fs.writeFileSync(b, Buffer.concat([pesPacket(0, 126_000, 117_000, 117_000)]));
    const out = path.join(dir, 'out.ts');
    await joinTsSegments(
      [
        { path: a, start: 1.4, duration: 10 },
        { path: b, start: 1.4, duration: 5 },
      ],
      out,
    );
    const o = fs.readFileSync(out);
    expect(o.length).toBe(3 * 188);
    const third = o.subarray(376);
    // b's first packet lands 10 s (900,000 ticks) later, right where a ends.
    expect(readTs(third, 12 + 9)).toBe(126_000 + 900_000);
    expect(readTs(third, 12 + 14)).toBe(117_000 + 900_000);
    expect(readPcr(third, 6)).toBe(117_000 + 900_000);
    expect(third[3]! & 0x0f).toBe(0); // 14, 15, then 0: continuous
    expect(third[10]! & 0x7f).toBe(0x7e); // PCR extension bits untouched

    // Near the wrap: 2^33 - 1 s plus 10 s comes out as 9 s.
    const c = path.join(dir, 'c.ts');
    fs.writeFileSync(c, pesPacket(3, 2 ** 33 - 90_000, 2 ** 33 - 90_000, 2 ** 33 - 90_000));
    await joinTsSegments(
      [
        { path: a, start: 1.4, duration: 10 },
        { path: c, start: 1.4, duration: 1 },
      ],
      out,
    );
    const wrapped = fs.readFileSync(out).subarray(376);
    expect(readTs(wrapped, 12 + 9)).toBe(810_000);
    expect(readPcr(wrapped, 6)).toBe(810_000);
  });

  it('refuses input that is not TS', async () => {
    const junk = path.join(dir, 'junk.ts');
    fs.writeFileSync(junk, Buffer.alloc(188 * 3, 0x11));
    await expect(joinTsSegments([{ path: junk, start: 0, duration: 1 }], path.join(dir, 'o.ts'))).rejects.toThrow(/packet sync/);
  });
});
