/**
 * Every import runs downward (docs/concepts/layout.md says who may import whom):
 * the kernel imports nothing above it, machines/ only the kernel and the
 * grader, the host everything a run is assembled from. The table below says
 * it for every folder of src/, machines/ and workers/, from the bottom up (a
 * folder may import its own modules and the folders of its row, nothing else):
 *
 *   src/kernel/          nothing: protocol (the messages), journal-version, routes, bus, errors, slots, sim formats
 *   src/types/           nothing: declarations of untyped packages
 *   workers/             kernel, types only (a prompt's wire types): pure CPU tasks run
 *                        in worker threads, which load nothing outside workers/
 *   src/grader/          kernel
 *   src/input/           kernel
 *   src/pool/            kernel, workers/ (the tasks it dispatches)
 *   src/gateway/         kernel, pool (its size-bounded LRU and size estimate)
 *   src/sim/             kernel, grader: the wire and its own formats, never a strategy
 *                        (the host hands it the role names it answers)
 *   machines/            kernel, grader: the kit never knows a strategy
 *   machines/strategies/ machines/, kernel, grader
 *   src/settings/        the run's settings, declared once, and the configuration they
 *                        fill (its type, its upgrade from older manifests): kernel,
 *                        workers/ (the tokenizer's name), machines/ and strategies
 *                        (their defaults and flags, as data), pool, gateway, sim and
 *                        observers (their defaults)
 *   src/store/           kernel, input, pool, gateway (the shapes of a call): the
 *                        manifest's config is opaque to it
 *   src/observers/       kernel, grader, store
 *   src/report/browser/  nothing: the report's page script and the chart data it reads
 *   src/viewer/browser/  the viewer's page script: types only, from src/viewer/ (the API's answers)
 *   src/report/          kernel, input (what makes a problem the one it is), observers, store, settings (a run's configuration), its browser/
 *   src/host/            everything a run is assembled from: machines/, strategies,
 *                        workers/, kernel, grader, input, pool, gateway, sim, store,
 *                        observers, settings (the configuration)
 *   src/analysis/        kernel, store, host (replay re-runs the host), settings
 *   src/viewer/          kernel, input, store, observers, report, host, settings
 *   src/plan/            tmas plan's forecasts: kernel, machines/ (the contract), gateway
 *                        (its held calls and limits), sim (the capacity model), host (the
 *                        run's ranking), settings (the configuration), analysis (opening a run)
 *   src/cli/             every folder above
 *   src/reference/       every folder above: the generated reference reads the program
 *   src/*.ts, *.mjs      the entries (the package's exports, the bin, the build):
 *                        everything above, and dist/
 *   bench/               (top-level, `npm run bench`) every folder of src/ but the
 *                        reference and the entries, the CLI included (its benchmarks
 *                        run tmas); nothing imports the bench
 *
 * Within a big room, sub-rooms import downward too: test/project/rooms.json orders each
 * room's sub-rooms from the bottom up ("." is the room's own folder), and a
 * module may import from its own sub-room and those below it, never from one
 * above (a room's concepts stand on each other as its folders say).
 *
 * No module imports itself through a cycle, and no folder does either. The
 * browser's folders are rooms of their own, bundled for a page: from outside
 * themselves they import types alone (erased from the bundle), and no
 * package or Node module but its types.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Folders the host assembles a run from. */
const RUN_PARTS = ['machines/', 'machines/strategies/', 'workers/', 'src/kernel/', 'src/grader/', 'src/input/', 'src/pool/', 'src/gateway/', 'src/sim/', 'src/store/', 'src/observers/'];

/** Which folders each folder's modules may import besides their own: the table of the header. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'src/kernel/': [],
  'src/types/': [],
  'workers/': ['src/kernel/'],
  'src/grader/': ['src/kernel/'],
  'src/input/': ['src/kernel/'],
  'src/pool/': ['src/kernel/', 'workers/'],
  'src/gateway/': ['src/kernel/', 'src/pool/'],
  'src/sim/': ['src/kernel/', 'src/grader/'],
  'machines/': ['src/kernel/', 'src/grader/'],
  'machines/strategies/': ['machines/', 'src/kernel/', 'src/grader/'],
  'src/settings/': ['src/kernel/', 'workers/', 'machines/', 'machines/strategies/', 'src/pool/', 'src/gateway/', 'src/sim/', 'src/observers/'],
  'src/store/': ['src/kernel/', 'src/input/', 'src/pool/', 'src/gateway/'],
  'src/observers/': ['src/kernel/', 'src/grader/', 'src/store/'],
  'src/report/browser/': [],
  'src/viewer/browser/': ['src/viewer/'],
  'src/report/': ['src/kernel/', 'src/input/', 'src/observers/', 'src/store/', 'src/settings/', 'src/report/browser/'],
  'src/host/': [...RUN_PARTS, 'src/settings/'],
  'src/analysis/': ['src/kernel/', 'src/store/', 'src/host/', 'src/settings/'],
  'src/viewer/': ['src/kernel/', 'src/input/', 'src/store/', 'src/observers/', 'src/report/', 'src/host/', 'src/settings/'],
  'src/plan/': ['src/kernel/', 'machines/', 'src/gateway/', 'src/sim/', 'src/host/', 'src/settings/', 'src/analysis/'],
  'src/cli/': [...RUN_PARTS, 'src/report/', 'src/host/', 'src/analysis/', 'src/viewer/', 'src/plan/', 'src/settings/'],
  'src/reference/': [...RUN_PARTS, 'src/report/', 'src/host/', 'src/analysis/', 'src/viewer/', 'src/plan/', 'src/settings/', 'src/cli/'],
  'src/': [...RUN_PARTS, 'src/report/', 'src/host/', 'src/analysis/', 'src/viewer/', 'src/plan/', 'src/settings/', 'src/cli/', 'src/reference/', 'dist/'],
  'bench/': [...RUN_PARTS, 'src/report/', 'src/host/', 'src/analysis/', 'src/viewer/', 'src/plan/', 'src/settings/', 'src/cli/'],
};

/** A big room's sub-rooms, from the bottom up ("." is the room's own folder), and what lives in each: test/project/rooms.json. */
interface Room {
  room: string;
  order: string[];
  subRooms: Record<string, { concept: string }>;
}
const ROOMS = (JSON.parse(readFileSync(new URL('./rooms.json', import.meta.url), 'utf8')) as { rooms: Room[] }).rooms;

/** The sub-room of `room` that holds `file`: the first folder below the room, or "." for the room's own files. */
function subRoomOf(room: string, file: string): string {
  const rest = file.slice(room.length + 1);
  return rest.includes('/') ? (rest.split('/')[0] ?? '.') : '.';
}

/** The imports within a room that run up its order: from a sub-room to one above it (or to one the order lacks). */
function upwardWithinRooms(graph: Map<string, string[]>, rooms: readonly Room[]): string[] {
  const out: string[] = [];
  for (const { room, order } of rooms) {
    for (const [file, targets] of graph) {
      if (!file.startsWith(`${room}/`)) continue;
      const from = subRoomOf(room, file);
      for (const target of targets) {
        if (!target.startsWith(`${room}/`)) continue;
        const to = subRoomOf(room, target);
        if (order.indexOf(to) > order.indexOf(from) || order.indexOf(from) < 0) {
          out.push(`${file} -> ${target}: ${room}'s ${from}/ may not import from ${to}/, which stands above it (its order, from the bottom up: ${order.join(', ')}; test/project/rooms.json)`);
        }
      }
    }
  }
  return out;
}

/** The table's folder that holds `file`: the longest folder of the table it lies in. */
function folderOf(file: string): string {
  const found = Object.keys(MAY_IMPORT)
    .filter((folder) => file.startsWith(folder))
    .sort((a, b) => b.length - a.length)[0];
  // Outside the table's folders (dist/, what the bin runs when built): the top folder.
  return found ?? `${file.split('/')[0]}/`;
}

function sources(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(REPO, path.join(entry.parentPath, entry.name)));
}

/** The folders whose modules run in a browser, bundled: they import only types from outside themselves. */
const BROWSER_ROOMS = ['src/viewer/browser/', 'src/report/browser/'];

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

/** Every module's relative imports, static and dynamic, as repository paths. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...sources('src'), ...sources('machines'), ...sources('workers'), ...sources('bench')]) {
    const text = readFileSync(path.join(REPO, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((match) => path.relative(REPO, path.resolve(path.dirname(path.join(REPO, file)), match[1] ?? match[2] ?? '')));
    graph.set(file, targets);
  }
  return graph;
}

/** The module graph folded onto the table's folders: which folder imports which (its own left out). */
function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const into = folders.get(from) ?? new Set<string>();
    for (const target of targets) if (folderOf(target) !== from) into.add(folderOf(target));
    folders.set(from, into);
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets]]));
}

/** The strongly connected components with more than one node (Tarjan). */
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

/** The imports of the modules in `folder` that reach a folder outside its row of the table. */
function upwardImports(graph: Map<string, string[]>, folder: string): string[] {
  const allowed = new Set([folder, ...(MAY_IMPORT[folder] ?? [])]);
  const out: string[] = [];
  for (const [file, targets] of graph) {
    if (folderOf(file) !== folder) continue;
    for (const target of targets) if (!allowed.has(folderOf(target))) out.push(`${file} -> ${target}`);
  }
  return out;
}

/** Every import or re-export of a module's text, with whether it is of types only (`import type`, `export type`). */
function importsOf(text: string): Array<{ from: string; typesOnly: boolean }> {
  const found: Array<{ from: string; typesOnly: boolean }> = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?[^'";]*?from\s*'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
    found.push({ from: match[3] ?? match[4] ?? match[5] ?? '', typesOnly: match[2] !== undefined });
  }
  return found;
}

/** What a browser module imports that a page's bundle must not carry: a value from outside its room, a package, a Node module. */
function browserBreaches(file: string, text: string): string[] {
  const room = BROWSER_ROOMS.find((folder) => file.startsWith(folder)) ?? '';
  return importsOf(text).flatMap(({ from, typesOnly }) => {
    if (typesOnly) return [];
    const inRoom = from.startsWith('.') && path.relative(REPO, path.resolve(path.dirname(path.join(REPO, file)), from)).startsWith(room);
    return inRoom ? [] : [`${file} -> ${from}`];
  });
}

describe('layers', () => {
  const graph = importGraph();

  test('the import graph was read (a broken pattern would make every check below pass)', () => {
    expect(graph.get('src/host/run/run-machine.ts')).toContain('machines/run.machine.ts');
    expect(graph.get('src/cli/run/run-action.ts')).toContain('src/host/strategy/plugins.ts');
    expect(graph.get('bench/main.ts')).toContain('src/cli/program.ts');
    expect(graph.get('src/gateway/gateway.ts')).toContain('src/gateway/dispatch/dispatcher.ts');
  });

  test('nothing outside the bench imports it: the product never loads a benchmark', () => {
    const into = [...graph].flatMap(([file, targets]) => (file.startsWith('bench/') ? [] : targets.filter((target) => target.startsWith('bench/')).map((target) => `${file} -> ${target}`)));
    expect(into).toEqual([]);
  });

  test('an import up a room\'s sub-rooms is found, one down is not', () => {
    const rooms = [{ room: 'src/gateway', order: ['reply', 'dispatch', '.'], subRooms: {} }];
    const upward = new Map([
      ['src/gateway/reply/reply.ts', ['src/gateway/dispatch/dispatcher.ts', 'src/gateway/reply/reasoning.ts', 'src/kernel/errors.ts']],
      ['src/gateway/dispatch/dispatcher.ts', ['src/gateway/reply/reply.ts', 'src/gateway/gateway.ts']],
      ['src/gateway/gateway.ts', ['src/gateway/dispatch/dispatcher.ts']],
    ]);
    expect(upwardWithinRooms(upward, rooms)).toEqual([
      "src/gateway/reply/reply.ts -> src/gateway/dispatch/dispatcher.ts: src/gateway's reply/ may not import from dispatch/, which stands above it (its order, from the bottom up: reply, dispatch, .; test/project/rooms.json)",
      "src/gateway/dispatch/dispatcher.ts -> src/gateway/gateway.ts: src/gateway's dispatch/ may not import from ./, which stands above it (its order, from the bottom up: reply, dispatch, .; test/project/rooms.json)",
    ]);
  });

  test('every sub-folder of a room of test/project/rooms.json is in its order, with what lives there, and every sub-room of its order is a folder', () => {
    for (const { room, order, subRooms } of ROOMS) {
      const folders = readdirSync(path.join(REPO, room), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
      expect(folders.filter((folder) => !order.includes(folder)), `${room}: folders missing from its order`).toEqual([]);
      expect(order.filter((sub) => sub !== '.' && !folders.includes(sub)), `${room}: sub-rooms that are not folders`).toEqual([]);
      expect(order.filter((sub) => sub !== '.' && !subRooms[sub]?.concept), `${room}: sub-rooms without a concept`).toEqual([]);
    }
  });

  test('within each room, sub-rooms import downward', () => {
    expect(ROOMS.length).toBeGreaterThan(5);
    expect(upwardWithinRooms(graph, ROOMS)).toEqual([]);
  });

  test('an upward import is found: the store importing the host, as it once did', () => {
    const upward = new Map([['src/store/store.ts', ['src/store/texts.ts', 'src/kernel/errors.ts', 'src/host/config.ts']]]);
    expect(upwardImports(upward, 'src/store/')).toEqual(['src/store/store.ts -> src/host/config.ts']);
    expect(cycles(folderGraph(new Map([...upward, ['src/host/config.ts', ['src/store/store.ts']]])))).toEqual([['src/host/', 'src/store/']]);
  });

  test('every folder of src/ has its row in the table (machines/ and workers/ have theirs), and rows name only folders of the table', () => {
    const folders = readdirSync(path.join(REPO, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}/`);
    expect(folders.filter((folder) => !(folder in MAY_IMPORT))).toEqual([]);
    const named = new Set(Object.values(MAY_IMPORT).flat());
    expect([...named].filter((folder) => folder !== 'dist/' && !(folder in MAY_IMPORT))).toEqual([]);
  });

  test.each(Object.keys(MAY_IMPORT))('%s imports only its own modules and the folders of its row', (folder) => {
    expect(upwardImports(graph, folder)).toEqual([]);
  });

  test('a browser module that imports a value from the server, a package or a Node module is found; types are not', () => {
    const text = "import type { RunSummary } from '../api-shapes.ts';\nimport { el } from './dom.ts';\nimport { readFile } from 'node:fs/promises';\nimport { Chart } from 'chart.js';\nimport type { Chart as C } from 'chart.js';\nimport { gradeOf } from '../queries.ts';\n";
    expect(browserBreaches('src/viewer/browser/page.ts', text)).toEqual(['src/viewer/browser/page.ts -> node:fs/promises', 'src/viewer/browser/page.ts -> chart.js', 'src/viewer/browser/page.ts -> ../queries.ts']);
  });

  test('the browser\'s modules import from outside their room only types', () => {
    const files = BROWSER_ROOMS.flatMap((room) => sources(room));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((file) => browserBreaches(file, readFileSync(path.join(REPO, file), 'utf8')))).toEqual([]);
  });

  test('the workers import from outside workers/ only types (a worker thread loads nothing else of ours)', () => {
    const files = sources('workers');
    expect(files.length).toBeGreaterThan(10);
    const values = files.flatMap((file) =>
      importsOf(readFileSync(path.join(REPO, file), 'utf8'))
        .filter(({ from, typesOnly }) => from.startsWith('.') && !typesOnly && !path.relative(REPO, path.resolve(path.dirname(path.join(REPO, file)), from)).startsWith('workers/'))
        .map(({ from }) => `${file} -> ${from}`),
    );
    expect(values).toEqual([]);
  });

  test('no import cycles between modules', () => {
    expect(cycles(graph)).toEqual([]);
  });

  test('no import cycles between folders', () => {
    expect(cycles(folderGraph(graph))).toEqual([]);
  });
});
