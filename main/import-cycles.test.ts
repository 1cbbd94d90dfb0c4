import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { featureViolations, importCycles, importGraph } from '../scripts/import-graph.js';

/**
 * DESIGN rule 9: no import circle among main/ files (type-only imports count), and no feature
 * importing another feature or its service's feature list. The allow-lists below are the circles
 * and crossings known when the guard was added; they only shrink: a circle that grows or a new one
 * fails, and so does an entry that no longer occurs (delete it).
 */
const root = path.resolve(import.meta.dirname, '..');
const featureLists = ['main/energy/features.ts', 'main/recordings/features/index.ts'];

const knownCycles: string[][] = [];

const knownCrossings: string[] = [];

describe('import graph of main/', () => {
  const graph = importGraph(root, 'main');

  it('reads the imports (the guard sees a known edge)', () => {
    expect(graph.get('main/energy/index.ts')).toContain('main/core/lifecycle.ts');
  });

  it('has no import circle beyond the shrinking allow-list', () => {
    expect(importCycles(graph)).toEqual(knownCycles);
  });

  it('has no feature importing another feature or a feature list beyond the shrinking allow-list', () => {
    expect(featureViolations(graph, featureLists)).toEqual(knownCrossings);
  });
});

describe('the guard itself', () => {
  it('finds a circle, type-only imports included', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('finds a feature importing another feature and the list', () => {
    const g = new Map([
      ['s/features/index.ts', ['s/x/feature.ts', 's/y/feature.ts']],
      ['s/x/feature.ts', ['s/y/lib.ts', 's/features/index.ts', 's/x/own.ts', 's/core.ts']],
      ['s/y/feature.ts', []],
    ]);
    expect(featureViolations(g, ['s/features/index.ts'])).toEqual(['s/x/feature.ts -> s/features/index.ts', 's/x/feature.ts -> s/y/lib.ts']);
  });
});
