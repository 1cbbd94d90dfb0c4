/**
 * The box simulator in a child process of its own (tests and benchmarks), so it keeps serving while
 * the process under test holds its event loop, and neither shares an event loop with the other.
 * Plain-data items only (no `content` buffers); loopback only, as the simulator itself.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { createBoxSimulator } from './box-simulator.js';
import type { SimShow } from './box-model.js';

export interface ChildBox {
  descriptionUrl: string;
  mediaUrl(id: string): string;
  stop(): Promise<void>;
}

interface Ready {
  descriptionUrl: string;
  mediaUrls: Record<string, string>;
}

export async function startBoxInChild(shows: SimShow[]): Promise<ChildBox> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve-box'], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.write(`${JSON.stringify(shows)}\n`);
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the box simulator process exited (${code}) before it was ready`)));
  });
  const ready = JSON.parse(line) as Ready;
  return {
    descriptionUrl: ready.descriptionUrl,
    mediaUrl: (id) => ready.mediaUrls[id] ?? `${ready.descriptionUrl}/no-such-item`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

async function serve(): Promise<void> {
  const input = readline.createInterface({ input: process.stdin });
  const shows = JSON.parse(await new Promise<string>((resolve) => input.once('line', resolve))) as SimShow[];
  const box = createBoxSimulator({ shows });
  await box.start();
  const mediaUrls = Object.fromEntries(shows.flatMap((s) => s.items.map((i) => [i.id, box.mediaUrl(i.id)])));
  process.stdout.write(`${JSON.stringify({ descriptionUrl: box.descriptionUrl, mediaUrls } satisfies Ready)}\n`);
  input.once('close', () => void box.stop().then(() => process.exit(0)));
}

if (process.argv.includes('--serve-box')) await serve();
