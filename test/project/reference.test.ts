/**
 * The reference pages in docs/reference/ are what the code gives: a flag, a
 * default, an error code or a message added without `npm run docs` fails here.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { packagePath } from '../../src/kernel/package-root.ts';
import { ERROR_CODES } from '../../src/kernel/errors.ts';
import { renderReference } from '../../src/reference/index.ts';
import { cell } from '../../src/reference/markdown.ts';
import { SETTINGS } from '../../src/settings/configure/index.ts';
import { flagName } from '../../src/settings/setting.ts';
import { SIM_SERVER_SETTINGS } from '../../src/settings/sections/sim-server.settings.ts';
import { SIM_DEFAULTS } from '../../src/sim/defaults.ts';

const pages = await renderReference();

test.each(Object.keys(pages))('%s is up to date (npm run docs writes it)', (page) => {
  const onDisk = readFileSync(packagePath(page), 'utf8');
  expect(onDisk, `${page} is stale: run npm run docs and commit it`).toBe(pages[page]);
});

test('the CLI page names every flag of tmas run, with its default', () => {
  const cli = pages['docs/reference/cli.md'] as string;
  for (const setting of SETTINGS) expect(cli).toContain(cell(`\`${setting.flags}\``));
  // Hidden flags are in the reference, though not in --help.
  expect(cli).toMatch(/`--retry-base-ms <ms>` \| 1000 \|/);
  expect(cli).toMatch(/`--n-verifications <n>` \| 8 \(--demo: 4\) \| refused unless --force \|/);
  expect(cli).toContain('## `tmas sim-server`');
  expect(cli).toContain('`--samples <k>`');
});

test('the CLI page names every flag of tmas sim-server from its declaration, with the simulator\'s defaults', () => {
  const cli = pages['docs/reference/cli.md'] as string;
  const simServer = cli.slice(cli.indexOf('## `tmas sim-server`'), cli.indexOf('\n## ', cli.indexOf('## `tmas sim-server`') + 1));
  for (const setting of SIM_SERVER_SETTINGS) expect(simServer).toContain(cell(`\`${setting.flags}\``));
  expect(simServer).toContain(`| \`--output-tokens <n>\` | ${SIM_DEFAULTS.outputTokens} |`);
  expect(simServer).toMatch(/\| `--kv-tokens <n>` \| 2000000 \| with --capacity: /);
});

// The table1 section listed --strategies alone (its --budgets missing) and sent the reader "below" to tmas run, which is above it.
test("the CLI page gives tmas table1's own flags and says what it requires; required options read required", () => {
  const cli = pages['docs/reference/cli.md'] as string;
  const table1 = cli.slice(cli.indexOf('## `tmas table1`'), cli.indexOf('\n## ', cli.indexOf('## `tmas table1`') + 1));
  expect(cli.indexOf('## `tmas run`')).toBeLessThan(cli.indexOf('## `tmas table1`'));
  expect(table1).toContain('Every option of `tmas run` (above)');
  expect(table1).toContain('`--output-file` is required');
  expect(table1).toMatch(/\| `--budgets <which>` \| `shared` \|/);
  expect(cli).toMatch(/\| `--problems <file>` \| required \|/);
  expect(cli).toMatch(/\| `--problem <id>` \| required \|/);
});

test('the error page lists every code once', () => {
  const errors = pages['docs/reference/errors.md'] as string;
  const listed = [...errors.matchAll(/^\| `(TMAS_[A-Z_]+)` \|/gm)].map((match) => match[1]);
  expect(listed.sort()).toEqual(Object.keys(ERROR_CODES).sort());
});

test('the message page lists every message type with its route', () => {
  const messages = pages['docs/reference/messages.md'] as string;
  expect(messages).toMatch(/\| `solution.requested` \| `problem:<id>` → `role:solution` \| `candidate: number`/);
  expect(messages).toMatch(/\| `llm.failed` \| `role:<role>` → `problem:<id>` \|/);
  expect(messages.match(/^\| `[a-z-]+\.[a-z]+` \|/gm)?.length).toBeGreaterThan(40);
});

test('every setting is declared once', () => {
  const flags = SETTINGS.map(flagName);
  expect(flags.filter((flag, index) => flags.indexOf(flag) !== index)).toEqual([]);
});
