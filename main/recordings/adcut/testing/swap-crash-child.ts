/**
 * Test fixture run as a child process: cuts the recording named on the command line and, between
 * the two renames of the swap, prints `SWAPPING` and hangs, so the parent can kill -9 it there.
 */
import { cutRecording } from '../cut.js';
import { defaultAdTools } from '../tools.js';
import { withWorkDir } from '../work-dir.js';

const file = process.argv[2]!;
await withWorkDir(file, (workDir) =>
  cutRecording({
    tools: defaultAdTools,
    file,
    source: file,
    breaks: [{ start: 40, end: 63 }],
    workDir,
    betweenRenames: () => {
      process.stdout.write('SWAPPING\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
    },
  }),
);
