/**
 * Test fixture run as a child process: moves the recording named on the command line into its
 * originals folder (Mark's chaptered copy in place of it) and, between the hard link and the
 * unlink, prints `LINKED` and hangs, so the parent can kill -9 it there.
 */
import { keepOriginalAside } from '../in-place.js';

const [file, mediaRoot] = [process.argv[2]!, process.argv[3]!];
keepOriginalAside(file, mediaRoot, () => {
  process.stdout.write('LINKED\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
});
