/**
 * The direction of imports reads from the path (DESIGN.md section 7): the
 * kernel imports nothing above it, machines/ only the kernel and the grader,
 * workers/ only each other, and no module imports itself through a cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(REPO, path.join(entry.parentPath, entry.name)));
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

/** Every module's relative imports, static and dynamic, as repository paths. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...sources('src'), ...sources('machines'), ...sources('workers')]) {
    const text = readFileSync(path.join(REPO, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((match) => path.relative(REPO, path.resolve(path.dirname(path.join(REPO, file)), match[1] ?? match[2] ?? '')));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components with more than one module (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        component.push(member);
        if (member === node) break;
      }
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The imports of files under `from` that leave the folders in `allowed`. */
function crossings(graph: Map<string, string[]>, from: string, allowed: string[]): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith(from)) continue;
    for (const target of targets) if (!allowed.some((folder) => target.startsWith(folder))) out.push(`${file} -> ${target}`);
  }
  return out;
}

describe('layers', () => {
  const graph = importGraph();

  test('the import graph was read (a broken pattern would make every check below pass)', () => {
    expect(graph.get('src/host/run-evaluation.ts')).toContain('machines/run.machine.ts');
    expect(graph.get('src/cli/program.ts')).toContain('src/host/plugins.ts');
  });

  test('no import cycles', () => {
    expect(cycles(graph)).toEqual([]);
  });

  test('the kernel imports nothing from the host, the observers or machines/', () => {
    expect(crossings(graph, 'src/kernel/', ['src/kernel/'])).toEqual([]);
  });

  test('machines/ imports only machines/, the kernel and the grader', () => {
    expect(crossings(graph, 'machines/', ['machines/', 'src/kernel/', 'src/grader/'])).toEqual([]);
  });

  test('workers/ holds only what runs in a worker thread: it imports nothing outside it', () => {
    expect(crossings(graph, 'workers/', ['workers/'])).toEqual([]);
  });

  test('the grader is a leaf: it imports only itself and the kernel', () => {
    expect(crossings(graph, 'src/grader/', ['src/grader/', 'src/kernel/'])).toEqual([]);
  });
});
