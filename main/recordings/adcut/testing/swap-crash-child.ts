/**
 * Test fixture run as a child process: cuts the recording named on the command line and, between
 * the two renames of the swap, prints `SWAPPING` and hangs, so the parent can kill -9 it there. With
 * `mid-cut` as the second argument it prints `CUTTING` and hangs as the second keep segment starts
 * being copied (the output half written) instead.
 */
import { cutRecording } from '../cut.js';
import { defaultAdTools } from '../tools.js';
import { withWorkDir } from '../work-dir.js';

const file = process.argv[2]!;
const midCut = process.argv[3] === 'mid-cut';
const hang = (line: string) => {
  process.stdout.write(`${line}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
};
await withWorkDir(file, (workDir) =>
  cutRecording({
    tools: defaultAdTools,
    file,
    source: file,
    breaks: [{ start: 40, end: 63 }],
    workDir,
    onSegment: (i) => {
      if (midCut && i === 2) hang('CUTTING');
    },
    betweenRenames: () => hang('SWAPPING'),
  }),
);
