import { existsSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { loadRun } from '../../src/report/load.ts';
import { JOURNAL_VERSION } from '../../src/kernel/journal-version.ts';
import { METRICS_VERSION } from '../../src/kernel/metrics-version.ts';
import { VERSION } from '../../src/kernel/version.ts';
import { runViewCommand } from '../../src/cli/inspect/view.command.ts';
import { Store } from '../../src/store/store.ts';
import { fileHashes, replayInProcess, runCliInProcess, finishedRunOfFile, test as base } from '../fixtures.ts';

/**
 * `test` with `manifestRun`: one finished one-problem run per file (a second
 * or so); every test edits a copy of its own in its `dir`. The name is this
 * file's alone: with modules kept between the files a fork runs (vitest.config.ts
 * isolate: false), a file-scoped fixture of another file's name (damaged-store's
 * `finished`) was handed to this file in its place.
 */
const test = base.extend<{ manifestRun: string }>({
  manifestRun: finishedRunOfFile('tmas-manifest-', 1, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']),
});

/** A copy of the file's finished run in `dir`. */
async function copyOf(run: string, dir: string, name = 'run'): Promise<string> {
  const copy = path.join(dir, name);
  await cp(run, copy, { recursive: true });
  return copy;
}

/** Edits the stored manifest of a run in place, as a user with a LevelDB tool would. */
async function editManifest(runDir: string, edit: (manifest: Record<string, unknown> & { config: { loop: Record<string, unknown> } }) => void): Promise<void> {
  const store = await Store.open(runDir);
  try {
    const manifest = (await store.manifest().get('manifest')) as Parameters<typeof edit>[0];
    edit(manifest);
    await store.manifest().put('manifest', manifest);
  } finally {
    await store.close();
  }
}

/** The run id the store's manifest names. */
async function runIdOf(runDir: string): Promise<string | undefined> {
  const store = await Store.open(runDir);
  try {
    return (await store.getManifest())?.run;
  } finally {
    await store.close();
  }
}

describe('a run manifest that is not the one its run wrote', () => {
  test('a seed changed in the store is refused by resume and fork, which pay nothing and leave the directory as it was', async ({ manifestRun, dir }) => {
    const run = await copyOf(manifestRun, dir);
    await editManifest(run, (manifest) => void (manifest.config.loop.seed = 7));
    const before = await fileHashes(run);
    for (const args of [['run', '--resume', run], ['fork', run, '--output-file', path.join(dir, 'fork')]]) {
      const { code, stderr } = await runCliInProcess(args);
      expect(code, args[0]).toBe(2);
      expect(stderr).toContain(`The run manifest in ${run} is not the one its run wrote`);
      expect(stderr).toContain('configHash');
      expect(stderr).toContain('[TMAS_STORE_DAMAGED]');
    }
    expect(await fileHashes(run)).toEqual(before);
  });

  test('another run\'s manifest (its run id not the one the message log carries) is named as damage, not replayed as a divergence', async ({ manifestRun, dir }) => {
    const run = await copyOf(manifestRun, dir);
    const own = await runIdOf(run);
    await editManifest(run, (manifest) => void (manifest.run = '0123456789ab'));
    await expect(replayInProcess(run)).rejects.toMatchObject({ code: 'TMAS_STORE_DAMAGED', message: expect.stringContaining(`it names run 0123456789ab, and the run's message log was written by run ${own}`) });
  });

  test('a strategy that disagrees with the configuration\'s is refused by the report rather than printed over its settings', async ({ manifestRun, dir }) => {
    const run = await copyOf(manifestRun, dir);
    await editManifest(run, (manifest) => void (manifest.strategy = 'majority'));
    await expect(loadRun(run)).rejects.toMatchObject({ code: 'TMAS_STORE_DAMAGED', message: expect.stringContaining('its strategy is "majority" and its configuration\'s "tmas"') });
  });
});

describe('outputs and the run that wrote them', () => {
  test('metrics.json names its run; outputs another run wrote are refused by report and resume, and one written before the id was recorded is read', async ({ manifestRun, dir }) => {
    const run = await copyOf(manifestRun, dir);
    const metricsFile = path.join(run, 'metrics.json');
    const metrics = JSON.parse(await readFile(metricsFile, 'utf8')) as Record<string, unknown>;
    expect(metrics.run).toBe(await runIdOf(run));
    // As when metrics.json and results.jsonl are copied together from another run: they agree with each other.
    await writeFile(metricsFile, JSON.stringify({ ...metrics, run: '0123456789ab' }));
    const before = await fileHashes(run);
    await expect(loadRun(run)).rejects.toMatchObject({ code: 'TMAS_REPORT_INCONSISTENT', message: expect.stringContaining('metrics.json was written by run 0123456789ab') });
    const resumed = await runCliInProcess(['run', '--resume', run]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('[TMAS_REPORT_INCONSISTENT]');
    expect(await fileHashes(run)).toEqual(before);
    const { run: _, ...older } = metrics;
    await writeFile(metricsFile, JSON.stringify(older));
    await expect(loadRun(run)).resolves.toMatchObject({ strategy: 'tmas' });
  });
});

describe('every manifest tmas writes is its run\'s', () => {
  test('a fork, its resume with --force and another setting, and a run moved to another directory are read and resumed without a word', async ({ manifestRun, dir }) => {
    const fork = path.join(dir, 'fork');
    expect((await runCliInProcess(['fork', manifestRun, '--output-file', fork, '--max-iterations', '2'])).code).toBe(0);
    const forced = await runCliInProcess(['run', '--resume', fork, '--force', '--temperature', '0.5']);
    expect(forced.stderr).not.toContain('TMAS_');
    expect(forced.code).toBe(0);
    await expect(loadRun(fork)).resolves.toMatchObject({ strategy: 'tmas' });
    const moved = await copyOf(manifestRun, dir, 'moved');
    const resumed = await runCliInProcess(['run', '--resume', moved]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`0 calls issued`);
    await expect(loadRun(moved)).resolves.toMatchObject({ strategy: 'tmas' });
  });
});

describe('a run written by a newer tmas', () => {
  test('a journal version above this tmas\'s: every command that reads the run refuses it (TMAS_STORE_FORMAT, naming the version and the tmas that wrote it) rather than read its messages and records as this version\'s; repair changes nothing', async ({ manifestRun, dir }) => {
    const run = await copyOf(manifestRun, dir);
    const newer = JOURNAL_VERSION + 1;
    await editManifest(run, (manifest) => Object.assign(manifest, { journalVersion: newer, tmasVersion: '9.0.0' }));
    const before = await fileHashes(run);
    const reads = [['log', run], ['calls', run], ['show', run, '--problem', 'p1'], ['export', run, '--out', path.join(dir, 'rl')], ['report', run, '--out', path.join(dir, 'r.html')], ['replay', run], ['fork', run, '--output-file', path.join(dir, 'fork')], ['run', '--resume', run], ['repair', run]];
    for (const args of reads) {
      const { code, stdout, stderr } = await runCliInProcess(args);
      expect(code, args[0]).toBe(2);
      expect(stdout, args[0]).toBe('');
      expect(stderr, args[0]).toContain(`written by tmas 9.0.0 (journal version ${newer})`);
      expect(stderr, args[0]).toContain(run);
      expect(stderr, args[0]).toContain('[TMAS_STORE_FORMAT]');
    }
    expect(await fileHashes(run)).toEqual(before);
  });
});

describe('a manifest that is no manifest of tmas\'s', () => {
  // Before: a string, a list or {} for the manifest was 'it holds no configuration, not to the configHash written with it
  // (undefined): a setting was changed', with a fork advised that could not read it; a store format of "abc" was 'written by
  // a newer tmas', and one of -1 was read as format 1 without a word.
  test('a manifest replaced by a string, a list or {} or deleted, and a store format that is no version ("abc", -1): log and resume name it as damage, say what it is, advise no fork, and change nothing', async ({ manifestRun, dir }) => {
    const cases: Array<[string, (store: Store) => Promise<void>, string]> = [
      ['string', (store) => store.manifest().put('manifest', 'hello'), 'it holds no configuration, which every manifest tmas writes holds (it is the string "hello")'],
      ['list', (store) => store.manifest().put('manifest', [1, 2]), 'it holds no configuration, which every manifest tmas writes holds (it is a list)'],
      ['empty', (store) => store.manifest().put('manifest', {}), 'it holds no configuration, which every manifest tmas writes holds (it is an empty object)'],
      ['word', (store) => store.manifest().put('format', 'abc'), 'the store format written beside it is "abc", not a whole number from 1'],
      ['negative', (store) => store.manifest().put('format', -1), 'the store format written beside it is -1, not a whole number from 1'],
      // Before: 'DIR holds no tmas run (no manifest in its store). Give the output directory of an earlier tmas run', of that directory.
      ['deleted', (store) => store.manifest().del('manifest'), "it is missing from the store, whose message log holds the messages of run "],
    ];
    for (const [name, damage, says] of cases) {
      const run = await copyOf(manifestRun, dir, name);
      const store = await Store.open(run);
      await damage(store).finally(() => store.close());
      const before = await fileHashes(run);
      for (const args of [['log', run], ['run', '--resume', run]]) {
        const { code, stderr } = await runCliInProcess(args);
        expect(code, `${name} ${args[0]}: ${stderr}`).toBe(2);
        expect(stderr, name).toContain(`The run manifest in ${run} is not the one its run wrote: ${says}`);
        expect(stderr, name).toMatch(/\. Nothing was changed\. Restore the run directory from a copy\. \[TMAS_STORE_DAMAGED\]/);
      }
      expect(await fileHashes(run)).toEqual(before);
    }
  });
});

describe('a metrics.json written by a newer tmas', () => {
  test("a metrics version above this tmas's: tmas report and tmas view refuse it (TMAS_OUTPUT_FORMAT, naming the file, both versions and the tmas that wrote it) rather than read its figures as this version's; nothing changes", async ({ manifestRun, dir }) => {
    const run = await copyOf(manifestRun, dir);
    const file = path.join(run, 'metrics.json');
    const metrics = JSON.parse(await readFile(file, 'utf8')) as { metricsVersion: number; evaluation: { tmasVersion: string } };
    expect(metrics.metricsVersion).toBe(METRICS_VERSION);
    const newer = METRICS_VERSION + 1;
    await writeFile(file, `${JSON.stringify({ ...metrics, metricsVersion: newer, evaluation: { ...metrics.evaluation, tmasVersion: '9.0.0' } }, null, 2)}\n`);
    const before = await fileHashes(run);
    const said = `${file} was written by tmas 9.0.0 (metrics version ${newer}); this tmas ${VERSION} reads metrics versions up to ${METRICS_VERSION}`;
    const report = await runCliInProcess(['report', run, '--out', path.join(dir, 'r.html')]);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain(said);
    expect(report.stderr).toContain('[TMAS_OUTPUT_FORMAT]');
    expect(existsSync(path.join(dir, 'r.html'))).toBe(false);
    const viewer = await runViewCommand([run], { port: 0 });
    try {
      const listed = JSON.stringify(await (await fetch(`${viewer.url}api/runs`)).json());
      expect(listed).toContain('TMAS_OUTPUT_FORMAT');
      expect(listed).toContain(`(metrics version ${newer})`);
      const curves = await fetch(`${viewer.url}api/runs/0/curves`);
      expect(curves.ok).toBe(false);
      expect(await curves.text()).toContain('TMAS_OUTPUT_FORMAT');
    } finally {
      await viewer.close();
    }
    expect(await fileHashes(run)).toEqual(before);
  });
});

describe('what repair says of a manifest it cannot make right', () => {
  test('another run\'s manifest: repair says the run cannot be resumed and why, not to resume it (which refuses it)', async ({ manifestRun, dir }) => {
    const run = await copyOf(manifestRun, dir);
    const own = await runIdOf(run);
    await editManifest(run, (manifest) => void (manifest.run = '0123456789ab'));
    const repaired = await runCliInProcess(['repair', run]);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).not.toContain('Continue with');
    expect(repaired.stdout).toContain(`A resume would refuse it: the run manifest in ${run} is not the one its run wrote: it names run 0123456789ab, and the run's message log was written by run ${own}`);
    const resumed = await runCliInProcess(['run', '--resume', run]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('[TMAS_STORE_DAMAGED]');
  });
});
