/**
 * A run made by a newer tmas with settings this one does not know, under a journal version this one
 * reads. Before, its configuration was read with those settings dropped, without a word: every command
 * read it, and a resume, a fork and a replay ran the run without them.
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { Level } from 'level';
import { describe, expect } from 'vitest';
import { hashOf } from '../../src/kernel/prng.ts';
import { fileHashes, finishedRunOfFile, runCliInProcess, test as base } from '../fixtures.ts';

const test = base.extend<{ settingsRun: string }>({
  settingsRun: finishedRunOfFile('tmas-newer-settings-', 1, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']),
});

/** Adds `value` at `field` (dotted, under the configuration) of the run's manifest, its configHash written again as a tmas writes it. */
async function addSetting(run: string, field: string, value: unknown): Promise<void> {
  const db = new Level<string, unknown>(path.join(run, 'store'), { valueEncoding: 'json' });
  try {
    const manifests = db.sublevel<string, Record<string, unknown>>('manifest', { valueEncoding: 'json' });
    const manifest = (await manifests.get('manifest')) as Record<string, unknown>;
    const keys = field.split('.');
    let at = manifest.config as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
    at[keys.at(-1) as string] = value;
    await manifests.put('manifest', { ...manifest, configHash: hashOf(manifest.config), tmasVersion: '0.9.0' });
  } finally {
    await db.close();
  }
}

describe('a run made with settings this tmas does not know', () => {
  for (const field of ['loop.speculativeDecoding', 'roles.endpoints.solution.sampling.typicalP', 'cache']) {
    test(`${field}: every command refuses it (TMAS_STORE_FORMAT, naming the setting and the tmas that wrote it); nothing changes`, async ({ dir, settingsRun }) => {
      const run = path.join(dir, 'run');
      await cp(settingsRun, run, { recursive: true });
      await addSetting(run, field, { k: 4 });
      const before = await fileHashes(run);
      for (const args of [['log', run], ['report', run], ['replay', run], ['run', '--resume', run], ['fork', run, '--output-file', path.join(dir, 'fork')]]) {
        const tried = await runCliInProcess(args);
        expect(tried.code, `${args[0]}: ${tried.stderr}`).toBe(2);
        expect(tried.stderr, args[0]).toContain(`settings this tmas 0.1.0 does not know (${field}), by tmas 0.9.0`);
        expect(tried.stderr, args[0]).toMatch(/a resume, fork or replay would run without them\. Nothing was changed\..*\[TMAS_STORE_FORMAT\]/);
      }
      expect(await fileHashes(run)).toEqual(before);
    }, 60_000);
  }
});
