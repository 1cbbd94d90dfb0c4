import { spawn } from 'node:child_process';

export interface ChildRead {
  path: string;
  status: number;
  bytes: number;
  /** Request to last byte. */
  ms: number;
}

/**
 * Reads `paths` from `base` one after another in a child process, like a browser would (its
 * reading never shares this process's event loop): the status, body size and time of each.
 */
export function readInChild(base: string, paths: string[]): Promise<ChildRead[]> {
  const script = `
    const out = [];
    for (const p of ${JSON.stringify(paths)}) {
      const t = performance.now();
      const res = await fetch(${JSON.stringify(base)} + p);
      let bytes = 0;
      for await (const chunk of res.body) bytes += chunk.length;
      out.push({ path: p, status: res.status, bytes, ms: performance.now() - t });
    }
    process.stdout.write(JSON.stringify(out));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(text) as ChildRead[]) : reject(new Error(`client exited with ${code}`))));
  });
}
