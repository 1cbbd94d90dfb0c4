/**
 * `npm start` (compiled: dist/main/headless.js) and `npm run dev` (tsx): both services without
 * Electron. This entry only turns on Node's on-disk compile cache (Node 22.1+; V8's code for every
 * module kept between starts, in <tmp>/node-compile-cache or NODE_COMPILE_CACHE) before anything
 * else loads, which brings the port up about twice as fast from the second start on; then it runs
 * headless-main.
 */
import module from 'node:module';

module.enableCompileCache?.();
await import('./headless-main.js');
