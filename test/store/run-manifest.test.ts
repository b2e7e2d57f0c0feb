/**
 * The store keeps a run's manifest as it was written; the host reads its
 * configuration in today's shape (src/host/run/run-manifest.ts), so a run made by
 * an older tmas still resumes, replays and shows.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { readRunManifest } from '../../src/host/run/run-manifest.ts';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import { upgradeConfig } from '../../src/settings/configure/upgrade.ts';
import { Store } from '../../src/store/store.ts';
import { test } from '../fixtures.ts';

/** A majority run's manifest as tmas wrote it before replica pools, strategy flags and the judge: one base URL a string, --samples at the top level, no judge endpoint. */
const OLD_MANIFEST = {
  run: 'r-old',
  config: {
    inputFile: '/data/p.jsonl',
    columns: { id: 'Problem ID', question: 'Problem', answer: 'Short Answer' },
    outputDir: '/runs/old',
    tokenizer: 'o200k_base',
    maxTokens: 32_768,
    nCandidates: 8,
    nVerifications: 8,
    maxIterations: 3,
    concurrency: 64,
    epsilon: 0.2,
    proof: false,
    seed: 0,
    jaccardThreshold: 0.7,
    temperature: 0.6,
    timeoutSeconds: 300,
    maxRetries: 8,
    activeProblems: 0,
    sim: { latencyMedianMs: 0, latencyP99Ms: 0, outputTokens: 250 },
    strategy: 'majority',
    samples: 16,
    endpoints: {
      solution: { baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' },
      verification: { baseUrl: null, model: 'tmas-sim' },
      summary: { baseUrl: null, model: 'tmas-sim' },
      experience: { baseUrl: null, model: 'tmas-sim' },
      guideline: { baseUrl: null, model: 'tmas-sim' },
    },
  },
  configHash: 'h',
  tmasVersion: '0.0.9',
  protocolVersion: 4,
  simulated: false,
  strategy: 'majority',
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('a run manifest written by an older tmas', () => {
  test('the store gives it back with its journal version under today\'s name; the host reads its configuration in today\'s shape', async ({ dir }) => {
    const runDir = path.join(dir, 'run');
    const store = await Store.open(runDir, { create: true });
    try {
      await store.manifest().put('manifest', OLD_MANIFEST);
      // Written before the journal version had its name: protocolVersion is read as journalVersion.
      const { protocolVersion, ...rest } = OLD_MANIFEST;
      const asToday = { ...rest, journalVersion: protocolVersion };
      expect(await store.getManifest()).toEqual(asToday);
      const manifest = await readRunManifest(store);
      const config = manifest?.config;
      expect(config?.loop.strategyOptions).toEqual({ samples: 16, votePool: 0 });
      expect(config).not.toHaveProperty('samples');
      expect(config?.roles.endpoints.solution.baseUrl).toEqual(['http://127.0.0.1:8000/v1']);
      expect(config?.roles.endpoints.verification.baseUrl).toBeNull();
      // What runs made before each setting did: no judge (its endpoint the solution agent's), every bank record kept, no cap.
      expect(config?.judge).toEqual({ passes: 0, maxTokens: null, when: 'always', audit: 0 });
      expect(config?.roles.endpoints.judge.baseUrl).toEqual(['http://127.0.0.1:8000/v1']);
      expect(config?.loop.bankMaxRecords).toBe(0);
      expect(config?.gateway).toMatchObject({ stream: true, dialect: 'chat', replicaMaxInFlight: null, totalTimeoutSeconds: null, serverQueue: 'short' });
      expect({ ...manifest, config: undefined }).toEqual({ ...asToday, config: undefined });
    } finally {
      await store.close();
    }
  });
});

/** Flat configurations written by tmas 0.1.0 (before sections) for a few command lines: test/fixtures/manifests/flat-0.1.0.json. */
const FLAT = JSON.parse(readFileSync(new URL('../fixtures/manifests/flat-0.1.0.json', import.meta.url), 'utf8')) as Record<string, { args: string[]; config: unknown }>;

describe('a flat configuration from before sections', () => {
  for (const [name, { args, config }] of Object.entries(FLAT)) {
    test(`reads as today's configuration of the same command line (${name})`, () => {
      const today = toRunConfig(parseRunFlags(args), {}, new Date(0)).config;
      // Settings added since, whose older runs did otherwise than today's default: runs made before the audit audited
      // nothing, those made before routing sent each call to the least-loaded replica, and those made before
      // --wait-for-server waited for no server to start.
      today.judge.audit = 0;
      today.gateway.routing = 'least-loaded';
      today.gateway.startWaitSeconds = 0;
      expect(upgradeConfig(config, '/runs/x')).toEqual(today);
    });
  }

  test('a manifest that lacks a field every tmas wrote is damaged, and says which', () => {
    const { config } = FLAT.plain as { config: Record<string, unknown> };
    const { seed: _, ...damaged } = config;
    expect(() => upgradeConfig(damaged, '/runs/x')).toThrow(expect.objectContaining({ code: 'TMAS_STORE_DAMAGED', message: expect.stringContaining('loop.seed') }));
  });

  test('a manifest whose fields hold what no flag takes is damaged, and says which and why', () => {
    const today = toRunConfig(parseRunFlags(['--demo']), {}, new Date(0)).config;
    const damaged = (change: (config: Record<string, Record<string, unknown>>) => void) => {
      const config = structuredClone(today) as unknown as Record<string, Record<string, unknown>>;
      change(config);
      return () => upgradeConfig(config, '/runs/x');
    };
    const refusal = (message: string) => expect.objectContaining({ code: 'TMAS_STORE_DAMAGED', message: expect.stringContaining(message) });
    expect(damaged((c) => void ((c.loop as Record<string, unknown>).nCandidates = 'eight'))).toThrow(refusal('loop.nCandidates is "eight", which --n-candidates does not take (not a number)'));
    expect(damaged((c) => void ((c.loop as Record<string, unknown>).nCandidates = -1))).toThrow(refusal('loop.nCandidates is -1, which --n-candidates does not take'));
    expect(damaged((c) => void ((c.loop as Record<string, unknown>).seed = {}))).toThrow(refusal('loop.seed is {}, which --seed does not take (not a number)'));
    expect(damaged((c) => void ((c.loop as Record<string, unknown>).strategy = 'nope'))).toThrow(refusal('loop.strategy is "nope", which names no strategy'));
    expect(damaged((c) => void ((c.roles as Record<string, unknown>).endpoints = 'x'))).toThrow(refusal('roles.endpoints is "x", not the endpoints'));
    expect(damaged((c) => void ((c.gateway as Record<string, unknown>).routing = 'random'))).toThrow(refusal('gateway.routing is "random", which --routing does not take (not one of'));
    expect(upgradeConfig(structuredClone(today), '/runs/x')).toEqual(today);
  });
});
