/**
 * A function fits on a screen, a file holds one concept
 * (docs/concepts/layout.md, "Short functions, short files"): no function in src/, machines/,
 * workers/ or bench/ runs over 80 lines, and no file over 400 (the pages' scripts,
 * src/viewer/browser/ and src/report/browser/, included), as the TypeScript
 * compiler's syntax tree measures them (a function from its first token to
 * its closing brace, its TSDoc left out; a file by its lines).
 *
 * KNOWN lists exceptions with their size, and only shrinks: a listed file or
 * function that grows fails, a new long function in a listed file fails, and
 * so does an entry that is no longer needed (a file under 400 lines, a
 * function under 80, or one gone). It is empty since 2026-11-26: keep it so.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript-parser';
import { describe, expect, test } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Longest a function may be, in lines. */
const MAX_FUNCTION_LINES = 80;
/** Longest a file may be, in lines. */
const MAX_FILE_LINES = 400;

/** A file's exception: its length when over MAX_FILE_LINES, and its functions over MAX_FUNCTION_LINES by qualified name. */
interface Exception {
  lines?: number;
  functions?: Record<string, number>;
}

/** The offenders being split now (2026-11-26), at their size that day. */
const KNOWN: Record<string, Exception> = {};

/** What one file measures: its lines, and its functions over MAX_FUNCTION_LINES. */
interface Measured {
  lines: number;
  long: Array<{ name: string; lines: number }>;
}

/** The name a function goes by: its own, the variable or property it is assigned to, or (anonymous). */
function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined) return parent.name.getText(source);
  return '(anonymous)';
}

/** Lines of `text`, as `wc -l` counts them (a last line without its newline counts too). */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Measures one source text; a function is named by the functions and classes around it and its own name (`createGateway > complete`). */
function measure(file: string, text: string): Measured {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const long: Measured['long'] = [];
  const visit = (node: ts.Node, outer: readonly string[]): void => {
    let inner = outer;
    if (ts.isClassLike(node)) inner = [...outer, node.name?.getText(source) ?? '(class)'];
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      inner = [...outer, nameOf(node, source)];
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > MAX_FUNCTION_LINES) long.push({ name: inner.join(' > '), lines: end - start + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, []);
  return { lines: lineCount(text), long };
}

/** Every source file of src/, machines/, workers/ and bench/, by repository path. */
function scan(): Map<string, Measured> {
  const measured = new Map<string, Measured>();
  for (const dir of ['src', 'machines', 'workers', 'bench']) {
    for (const entry of readdirSync(path.join(REPO, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(ts|mjs)$/.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
      const file = path.relative(REPO, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      measured.set(file, measure(file, readFileSync(path.join(REPO, file), 'utf8')));
    }
  }
  return measured;
}

/** What breaks the rule or its list of exceptions, one line each, with what to do. */
function breaches(measured: ReadonlyMap<string, Measured>, known: Readonly<Record<string, Exception>>): string[] {
  const found: string[] = [];
  for (const [file, { lines, long }] of measured) {
    const exception = known[file] ?? {};
    if (exception.lines === undefined && lines > MAX_FILE_LINES) found.push(`${file}: ${lines} lines, more than ${MAX_FILE_LINES}: split it by concept`);
    if (exception.lines !== undefined && lines > exception.lines) found.push(`${file}: ${lines} lines, more than its ${exception.lines} in KNOWN: it may only shrink`);
    if (exception.lines !== undefined && lines <= MAX_FILE_LINES) found.push(`${file}: ${lines} lines, no longer over ${MAX_FILE_LINES}: take its lines out of KNOWN`);
    const listed = new Map(Object.entries(exception.functions ?? {}));
    for (const fn of long) {
      const allowed = listed.get(fn.name);
      listed.delete(fn.name);
      if (allowed === undefined) found.push(`${file}: ${fn.name} is ${fn.lines} lines, more than ${MAX_FUNCTION_LINES}: give its inner concepts names of their own`);
      else if (fn.lines > allowed) found.push(`${file}: ${fn.name} is ${fn.lines} lines, more than its ${allowed} in KNOWN: it may only shrink`);
    }
    for (const name of listed.keys()) found.push(`${file}: ${name} is no longer over ${MAX_FUNCTION_LINES} lines (or no longer there): take it out of KNOWN`);
  }
  for (const file of Object.keys(known)) if (!measured.has(file)) found.push(`${file} is gone: take it out of KNOWN`);
  return found;
}

/** Source text with a function of each kind, each `lines` long. */
function sampleOfLength(lines: number): string {
  const body = (indent: string) => Array.from({ length: lines - 3 }, (_, index) => `${indent}  total += ${index};`).join('\n');
  return [
    `export function declared(): number {\n  let total = 0;\n${body('')}\n}`,
    `export const arrow = (): void => {\n  let total = 0;\n${body('')}\n};`,
    `export const expression = function (): void {\n  let total = 0;\n${body('')}\n};`,
    `class Kept {\n  method(): void {\n    let total = 0;\n${body('  ')}\n  }\n  get value(): number {\n    let total = 0;\n${body('  ')}\n  }\n}`,
    // A method of an object a factory returns: 4 lines longer around it.
    `export function outer() {\n  return {\n    inner() {\n      let total = 0;\n${body('    ').split('\n').slice(4).join('\n')}\n    },\n  };\n}`,
  ].join('\n');
}

describe('house rules: short functions, short files', () => {
  const measured = scan();

  test('a function of every kind over 80 lines is found and named by where it lies; one of 80 lines is not', () => {
    const long = measure('sample.ts', sampleOfLength(81));
    expect(long.long.map((fn) => fn.name)).toEqual(['declared', 'arrow', 'expression', 'Kept > method', 'Kept > value', 'outer']);
    expect(long.long.every((fn) => fn.lines === 81)).toBe(true);
    expect(measure('sample.ts', sampleOfLength(80)).long).toEqual([]);
    expect(measure('sample.ts', sampleOfLength(90)).long.map((fn) => `${fn.name} ${fn.lines}`)).toContain('outer > inner 86');
  });

  test('a listed file or function that grows, a new long function, a new long file and an exception no longer needed are each reported', () => {
    const known: Record<string, Exception> = {
      'src/big.ts': { lines: 500, functions: { huge: 200 } },
      'src/split.ts': { lines: 450, functions: { gone: 90 } },
      'src/removed.ts': { functions: { old: 100 } },
    };
    const sample = new Map<string, Measured>([
      ['src/big.ts', { lines: 501, long: [{ name: 'huge', lines: 201 }, { name: 'fresh', lines: 81 }] }],
      ['src/split.ts', { lines: 400, long: [] }],
      ['src/new.ts', { lines: 401, long: [] }],
      ['src/fine.ts', { lines: 400, long: [] }],
    ]);
    expect(breaches(sample, known)).toEqual([
      'src/big.ts: 501 lines, more than its 500 in KNOWN: it may only shrink',
      'src/big.ts: huge is 201 lines, more than its 200 in KNOWN: it may only shrink',
      'src/big.ts: fresh is 81 lines, more than 80: give its inner concepts names of their own',
      'src/split.ts: 400 lines, no longer over 400: take its lines out of KNOWN',
      'src/split.ts: gone is no longer over 80 lines (or no longer there): take it out of KNOWN',
      'src/new.ts: 401 lines, more than 400: split it by concept',
      'src/removed.ts is gone: take it out of KNOWN',
    ]);
  });

  test('the sources were read: hundreds of files, from each of the four folders, TypeScript and JavaScript, the pages\' scripts too', () => {
    // A scan that read nothing would pass the rule below (the first test shows that what is read is measured).
    expect(measured.size).toBeGreaterThan(200);
    const files = ['src/cli/main.ts', 'machines/contract.ts', 'workers/load.mjs', 'bench/runner.ts', 'src/viewer/browser/viewer.ts', 'src/report/browser/report-charts.ts'];
    expect(files.map((file) => (measured.get(file)?.lines ?? 0) > 10)).toEqual(files.map(() => true));
  });

  test('no function over 80 lines and no file over 400 in src/, machines/, workers/ and bench/, except those of KNOWN, which only shrink', () => {
    expect(breaches(measured, KNOWN)).toEqual([]);
  });
});

/** The names of the fixtures a test file declares with `.extend<{ name: Type; … }>`. */
function fixtureNames(text: string): string[] {
  return [...text.matchAll(/\.extend<\{([^}]*)\}>/g)].flatMap((m) => [...(m[1] ?? '').matchAll(/(\w+)\s*:/g)].map((n) => n[1] as string));
}

describe('house rules: the test files', () => {
  test("no two test files declare a fixture of the same name: a fork keeps modules between the files it runs (vitest.config.ts isolate: false), and a file-scoped fixture of one file's name was handed to another in its place", () => {
    const owners = new Map<string, string[]>();
    for (const entry of testFiles()) {
      for (const name of fixtureNames(readFileSync(path.join(REPO, 'test', entry), 'utf8'))) owners.set(name, [...(owners.get(name) ?? []), entry]);
    }
    expect(owners.size).toBeGreaterThan(3);
    expect([...owners].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`)).toEqual([]);
  });

  test("each test file lives in the room of what it tests, as the sources do: test/'s root holds only what every room reads", () => {
    const atRoot = testFiles().filter((file) => !file.includes('/'));
    expect(atRoot.sort()).toEqual(['chromium.ts', 'fixtures.ts', 'global-setup.ts']);
    const rooms = new Set(testFiles().filter((file) => file.endsWith('.test.ts')).map((file) => file.split('/')[0]));
    expect(rooms.size).toBeGreaterThan(8);
  });
});

/** The TypeScript files of test/, each as a path under it (its fixtures' data aside). */
function testFiles(): string[] {
  return readdirSync(path.join(REPO, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.startsWith(`fixtures${path.sep}`))
    .map((file) => file.split(path.sep).join('/'));
}
