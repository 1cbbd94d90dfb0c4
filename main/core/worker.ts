import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';

/**
 * Starts a worker module that sits next to `base`: the built .js directly; in development and tests
 * (.ts sources) through a tiny bootstrap that registers tsx in the worker first. `resourceLimits`:
 * the worker's own V8 heap limits; `transferList`: what `workerData` hands over (a MessagePort).
 */
export function startWorker(name: string, base: string, workerData: unknown, resourceLimits?: ResourceLimits, transferList?: Transferable[]): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), { workerData, resourceLimits, transferList });
  const url = new URL(`./${name}.ts`, base).href;
  // Resolved here, from this file, so the worker finds tsx whatever the working directory.
  // (its ESM build: the package's `import` entry next to the CommonJS one require.resolve finds).
  const tsx = pathToFileURL(createRequire(base).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`;
  return new Worker(boot, { eval: true, workerData, resourceLimits, transferList });
}
