/**
 * The run's configuration is filled once, by the settings: every field of
 * every section has its value whatever the command line, and no consumer
 * decides a default of its own (`config.judge.passes ?? 0` would hide a
 * setting that forgot to fill its field, and let two readers disagree).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import { SETTINGS } from '../../src/settings/configure/index.ts';
import { unfilledFields } from '../../src/settings/unfilled.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function sources(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name))
    .map((entry) => path.relative(REPO, path.join(entry.parentPath, entry.name)));
}

describe('one configuration, filled once', () => {
  test('every field is filled for every strategy, a bare command line and the demo', () => {
    const lines = [['--demo'], ...Object.keys(STRATEGIES).map((name) => ['--input-file', 'p.jsonl', '--strategy', name])];
    for (const args of lines) expect({ args, unfilled: unfilledFields(toRunConfig(parseRunFlags(args), {}).config) }).toEqual({ args, unfilled: [] });
  });

  test('every setting that lands in the configuration names its field through a typed accessor', () => {
    for (const setting of SETTINGS) {
      if (setting.field === undefined) continue;
      expect(setting.field.name).toMatch(/^(problems|outputs|loop|context|roles|judge|gateway|sim)\.\w+(\.\w+)*$/);
    }
    // No string path survives in a declaration: the compiler checks each field.
    for (const file of sources('src/settings')) expect({ file, config: /^\s*config:\s*['`]/m.test(readFileSync(path.join(REPO, file), 'utf8')) }).toEqual({ file, config: false });
  });

  test('no consumer re-decides a default of the configuration', () => {
    // A configuration field followed by `?? <literal>`: the default belongs to the field's declaration.
    const redecided = /config(\.\w+)+\s*\?\?\s*(\d|'|"|`|true|false|\[|\{)/;
    const found = ['src', 'machines', 'workers']
      .flatMap(sources)
      .filter((file) => !file.startsWith('src/settings/'))
      .flatMap((file) =>
        readFileSync(path.join(REPO, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (redecided.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });

  test('the settings cast nothing through unknown', () => {
    for (const file of sources('src/settings')) expect({ file, cast: readFileSync(path.join(REPO, file), 'utf8').includes('as unknown as') }).toEqual({ file, cast: false });
  });
});
