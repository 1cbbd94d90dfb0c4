import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The import graph of a source folder, read with the TypeScript compiler's own pre-processor (every
 * `import`, `import type`, `export … from` and `import()`; type-only imports count: they close a
 * circle for a reader as much as for the compiler). Only relative imports are followed.
 * Paths are relative to `root`, with forward slashes.
 */
export type ImportGraph = Map<string, string[]>;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base, `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') || c.endsWith('.tsx') ? fs.existsSync(c) : false) ?? null;
}

export function importGraph(root: string, folder: string): ImportGraph {
  const graph: ImportGraph = new Map();
  const rel = (p: string) => path.relative(root, p).split(path.sep).join('/');
  for (const file of walk(path.join(root, folder))) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((s) => s.startsWith('.'))
      .flatMap((s) => {
        const r = resolve(file, s);
        return r ? [rel(r)] : [];
      });
    graph.set(rel(file), [...new Set(targets)].sort());
  }
  return graph;
}

/** Every import circle: the strongly connected components with more than one file (or a file importing itself), each sorted. */
export function importCycles(graph: ImportGraph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) connect(v);
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * Imports that break the feature rule: a feature (the folder of each module a feature list imports,
 * or the file itself when it sits at the service's root) importing the list or another feature.
 * Tests are left out: a feature's test may compose the service. Each as `from -> to`.
 */
export function featureViolations(graph: ImportGraph, lists: readonly string[]): string[] {
  const units: string[] = [];
  for (const list of lists) {
    const serviceRoot = path.posix.dirname(path.posix.dirname(list));
    for (const target of graph.get(list) ?? []) {
      const dir = path.posix.dirname(target);
      units.push(dir === serviceRoot || dir === path.posix.dirname(list) ? target : `${dir}/`);
    }
  }
  const unitOf = (file: string) => units.filter((u) => (u.endsWith('/') ? file.startsWith(u) : file === u)).sort((a, b) => b.length - a.length)[0];
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const own = unitOf(from);
    if (!own || /\.test\.tsx?$/.test(from) || from.includes('/testing/')) continue;
    for (const to of targets) {
      const theirs = unitOf(to);
      if (lists.includes(to) || (theirs && theirs !== own && !theirs.startsWith(own))) out.push(`${from} -> ${to}`);
    }
  }
  return out.sort();
}
