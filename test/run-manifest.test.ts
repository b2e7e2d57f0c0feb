/**
 * The store keeps a run's manifest as it was written; the host reads its
 * configuration in today's shape (src/host/run-manifest.ts), so a run made by
 * an older tmas still resumes, replays and shows.
 */
import path from 'node:path';
import { describe, expect } from 'vitest';
import { readRunManifest } from '../src/host/run-manifest.ts';
import { Store } from '../src/store/store.ts';
import { test } from './fixtures.ts';

/** A majority run's manifest as tmas wrote it before replica pools and strategy flags: one base URL a string, --samples at the top level. */
const OLD_MANIFEST = {
  run: 'r-old',
  config: {
    strategy: 'majority',
    samples: 16,
    endpoints: { solution: { baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' }, verification: { baseUrl: null, model: 'tmas-sim' } },
  },
  configHash: 'h',
  tmasVersion: '0.0.9',
  protocolVersion: 4,
  simulated: false,
  strategy: 'majority',
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('a run manifest written by an older tmas', () => {
  test('the store gives it back as written; the host reads its configuration in today\'s shape', async ({ dir }) => {
    const runDir = path.join(dir, 'run');
    const store = await Store.open(runDir, { create: true });
    try {
      await store.manifest().put('manifest', OLD_MANIFEST);
      expect(await store.getManifest()).toEqual(OLD_MANIFEST);
      const manifest = await readRunManifest(store);
      expect(manifest?.config.strategyOptions).toEqual({ samples: 16 });
      expect(manifest?.config).not.toHaveProperty('samples');
      expect(manifest?.config.endpoints.solution.baseUrl).toEqual(['http://127.0.0.1:8000/v1']);
      expect(manifest?.config.endpoints.verification.baseUrl).toBeNull();
      expect({ ...manifest, config: undefined }).toEqual({ ...OLD_MANIFEST, config: undefined });
    } finally {
      await store.close();
    }
  });
});
