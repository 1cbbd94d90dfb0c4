/**
 * Draws the two web apps' home-screen icons (PNG, no dependencies: Node's zlib) into
 * renderer/public/icons/, which Vite copies into the build. Run `tsx scripts/make-icons.ts` after
 * changing a shape; the PNGs are committed so a build needs nothing extra.
 *   energy-<size>.png      a yellow lightning bolt on a dark blue rounded square
 *   recordings-<size>.png  a red "record" dot in a white ring on a dark rounded square
 * Both are drawn inside the maskable safe zone (the middle 80 %), so one file serves "any maskable".
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

type Rgba = [number, number, number, number];
type Shape = (x: number, y: number) => Rgba | null;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A PNG of `size`×`size` where each pixel is the shape's colour (4× supersampled edges). */
export function png(size: number, shape: Shape): Buffer {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  const ss = 4;
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < ss; sy++)
        for (let sx = 0; sx < ss; sx++) {
          const c = shape((x + (sx + 0.5) / ss) / size, (y + (sy + 0.5) / ss) / size);
          if (!c) continue;
          for (let i = 0; i < 3; i++) acc[i]! += c[i]! * c[3];
          acc[3]! += c[3];
        }
      const o = y * (size * 4 + 1) + 1 + x * 4;
      const a = acc[3]!;
      for (let i = 0; i < 3; i++) raw[o + i] = a ? Math.round(acc[i]! / a) : 0;
      raw[o + 3] = Math.round((a / (ss * ss)) * 255);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

function inPolygon(x: number, y: number, pts: ReadonlyArray<readonly [number, number]>): boolean {
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i]!;
    const [xj, yj] = pts[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

const square = (bg: Rgba) => (x: number, y: number): Rgba | null => {
  const r = 0.18;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return Math.hypot(x - cx, y - cy) <= r ? bg : null;
};

const BOLT: Array<[number, number]> = [
  [0.56, 0.14],
  [0.28, 0.56],
  [0.47, 0.56],
  [0.41, 0.86],
  [0.72, 0.42],
  [0.53, 0.42],
];

const energy: Shape = (x, y) => {
  const bg = square([15, 32, 56, 1])(x, y);
  if (!bg) return null;
  return inPolygon(x, y, BOLT) ? [242, 182, 50, 1] : bg;
};

const recordings: Shape = (x, y) => {
  const bg = square([24, 32, 41, 1])(x, y);
  if (!bg) return null;
  const d = Math.hypot(x - 0.5, y - 0.5);
  if (d <= 0.2) return [229, 57, 53, 1];
  if (d >= 0.27 && d <= 0.32) return [230, 235, 240, 1];
  return bg;
};

const out = path.join(import.meta.dirname, '..', 'renderer', 'public', 'icons');
fs.mkdirSync(out, { recursive: true });
for (const size of [192, 512]) {
  fs.writeFileSync(path.join(out, `energy-${size}.png`), png(size, energy));
  fs.writeFileSync(path.join(out, `recordings-${size}.png`), png(size, recordings));
}
console.log(`icons written to ${out}`);
