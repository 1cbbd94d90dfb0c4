import fs from 'node:fs';
import path from 'node:path';

export interface DemoFolderSummary {
  files: number;
  bytes: number;
  /** Recordings downloaded into the demo's media folder (`.ts` files, originals kept after a cut included). */
  recordings: number;
}

/** What is in the demo's data folder (bounded walk: symlinks are not followed). */
export function summariseFolder(dir: string): DemoFolderSummary {
  const out: DemoFolderSummary = { files: 0, bytes: 0, recordings: 0 };
  const walk = (d: string, depth: number) => {
    if (depth > 12) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.isFile()) {
        out.files++;
        try {
          out.bytes += fs.statSync(p).size;
        } catch {
          // gone meanwhile
        }
        if (/\.ts(\.orig)?$/.test(e.name)) out.recordings++;
      }
    }
  };
  walk(dir, 0);
  return out;
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** Removes the demo's data folder and says what went, for the line Ctrl+C prints. */
export function removeDemoFolder(dir: string): string {
  const s = summariseFolder(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  const gone = !fs.existsSync(dir);
  return gone
    ? `Removed the demo data folder ${dir}: ${s.files} file${s.files === 1 ? '' : 's'}, ${mb(s.bytes)} (energy history and settings, the recordings state and ${s.recordings} downloaded recording file${s.recordings === 1 ? '' : 's'}).`
    : `Could not remove the demo data folder ${dir}; delete it by hand.`;
}
