/**
 * `npm start` (bundled: dist/server/headless.js, see scripts/build-server.mjs) and `npm run dev` (tsx): both services without
 * Electron. This entry only checks that Node is new enough (core/require-node.ts) and turns on
 * Node's on-disk compile cache (Node 22.1+; V8's code for every module kept between starts, in
 * <tmp>/node-compile-cache or NODE_COMPILE_CACHE) before anything else loads, so later starts skip
 * compiling our modules and the dependencies; then it runs headless-main. (`npm run bench runtime` shows its effect: small beside the start's own work.)
 */
import './core/require-node.js';
import module from 'node:module';

module.enableCompileCache?.();
await import('./headless-main.js');
