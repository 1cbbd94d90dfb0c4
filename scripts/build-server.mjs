/**
 * `npm run build:server`: the headless start (`npm start`) as a few bundled ES modules in
 * dist/server/, built by esbuild straight from the TypeScript sources. Loading ~400 small files
 * (ours and the dependencies') one by one was most of a start's CPU time; a bundle loads in a few
 * reads (`npm run bench runtime` shows the start beside a bare fastify server).
 *
 * Layout, which main/core/worker.ts and main/core/paths.ts rely on: every output file sits at the
 * root of dist/server/ — the entry, the shared chunks (the recording sync is a chunk of its own,
 * loaded after the bridge listens) and the worker-thread entries under their own names — so a
 * module's `new URL('./<worker>.js', import.meta.url)` finds its worker, and `dist/server/../..` is
 * the repository. Native and optional modules stay in node_modules (better-sqlite3, hap-nodejs,
 * ws's optional accelerators). Plain JavaScript on purpose: it runs before anything is compiled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist', 'server');

/** Worker-thread entries: every `<name>-worker.ts` under main/ (started by core/worker.ts `startWorker`). */
const workers = fs
  .readdirSync(path.join(root, 'main'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('-worker.ts') && !f.split(path.sep).includes('testing'))
  .map((f) => path.join('main', f));
const names = workers.map((f) => path.basename(f, '.ts'));
if (new Set(names).size !== names.length) throw new Error(`worker file names must be unique in the bundle: ${names.join(', ')}`);

/**
 * `import http from 'node:http'` in an ES module makes Node build the module's ES facade, which
 * reads every export — among them the lazy `WebSocket` getters that load Node's bundled undici
 * (a 750 kB script kept in memory for the life of the process, for a fetch nobody made). The
 * bundle takes these built-ins through `require`, as CommonJS code does; only the default import
 * exists, so a named import fails the build instead of misbehaving.
 */
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^(node:)?https?$/ }, (args) => (args.kind === 'import-statement' ? { path: args.path.replace(/^node:/, ''), namespace: 'builtin-by-require' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'builtin-by-require' }, (args) => ({
      contents: `import { createRequire } from 'node:module';\nexport default createRequire(import.meta.url)('node:${args.path}');\n`,
      loader: 'js',
    }));
  },
};

/**
 * zod re-exports its error messages in ~50 languages as `z.locales`; nothing here uses them (the
 * English ones zod sets up for itself come in directly), and they were a quarter of the bundle.
 */
const withoutZodLocales = {
  name: 'without-zod-locales',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => (/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'empty' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};\n', loader: 'js' }));
  },
};

/**
 * @fastify/static requires glob (100 kB minified) at load, but calls it only to list a folder's
 * files for `wildcard: false`; both services register it with `serve: false`, so it never runs.
 * Its `require('glob')` gets a stand-in that loads the real glob (a chunk of its own) on first call.
 */
const globOnFirstCall = {
  name: 'glob-on-first-call',
  setup(b) {
    b.onResolve({ filter: /^glob$/ }, (args) =>
      /[\\/]node_modules[\\/]@fastify[\\/]static[\\/]/.test(args.importer) ? { path: 'glob', namespace: 'glob-on-first-call', pluginData: args.resolveDir } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'glob-on-first-call' }, (args) => ({
      contents: "module.exports = { glob: async (...args) => (await import('glob')).glob(...args) };\n",
      loader: 'js',
      resolveDir: args.pluginData,
    }));
  },
};

fs.rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'main/headless.ts', out: 'headless' },
    ...workers.map((file) => ({ in: file, out: path.basename(file, '.ts') })),
  ],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  // Whitespace and syntax minified, ASCII-only: V8 keeps every script's source in memory for its
  // lifetime (a single non-ASCII character makes it two bytes per character). Identifiers are not
  // renamed, so functions and classes keep their own names in logs and stack traces for free;
  // esbuild's `keepNames` would instead wrap every named closure in a `__name()` call each time it
  // is created (in a poll's tariff integration, once per sample), costing the start with history
  // ~50-70 ms (docs/performance.md). The source maps beside the files map positions back.
  minifyWhitespace: true,
  minifySyntax: true,
  charset: 'ascii',
  legalComments: 'linked',
  sourcemap: 'linked',
  // Native addons load from node_modules; hap-nodejs is imported only when HomeKit is switched on.
  // Fastify's JSON-schema compilers (ajv, fast-json-stringify: main/core/http.ts loads them only
  // for a route with a JSON schema, and none has one) and its `inject` (light-my-request, tests
  // only) stay out too: a fifth of the bundle nobody runs, required from node_modules if ever used.
  external: ['better-sqlite3', 'hap-nodejs', 'bufferutil', 'utf-8-validate', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'light-my-request'],
  // The CommonJS dependencies inside an ES module bundle still call require() for Node built-ins.
  banner: { js: "import { createRequire as __hlbCreateRequire } from 'node:module'; const require = __hlbCreateRequire(import.meta.url);" },
  plugins: [builtinsByRequire, withoutZodLocales, globOnFirstCall],
  logLevel: 'warning',
});
