/** Settings of the method and its loop: the strategy, N, M, T, ε, the seed, the banks, the schedule. */
import { STRATEGIES } from '../../../machines/strategies/index.ts';
import { strategyOptionsOf } from '../strategy-flags.ts';
import type { Schedule } from '../config.ts';
import { runAgentsAt } from '../files/agents-file.ts';
import { AGENTS_FILE, fileIdentity, filePlace } from '../files/file-identity.ts';
import { decimal, integer } from '../parsers.ts';
import { DEMO } from './run.settings.ts';
import { field } from '../field.ts';
import { setting } from '../setting.ts';

/** `--strategy`, `--agents`, N, M, T, ε, the seed, the banks and the schedule. */
export const LOOP_SETTINGS = [
  setting<string>({
    flags: '--strategy <name>',
    section: 'loop',
    help: `the method: ${Object.keys(STRATEGIES).join(', ')}`,
    default: 'tmas',
    shapesCalls: true,
    // The name the registry resolved (a user's plugin too), and that strategy's own flags, defaults filled in.
    write: (config, _, { strategy, flags }) => void Object.assign(config.loop, { strategy: strategy.name, strategyOptions: strategyOptionsOf(strategy, flags) }),
    // Another strategy brings its own options.
    resume: [
      {
        read: (c) => c.loop.strategy,
        write: (t, s) => void Object.assign(t.loop, { strategy: s.loop.strategy, strategyOptions: { ...s.loop.strategyOptions } }),
      },
    ],
  }),
  setting<string>({
    flags: '--agents <file>',
    section: 'loop',
    help: 'a TS or JS module exporting defineAgents({...}): replaces roles of the chosen strategy (docs/extending/agents-module.md)',
    shapesCalls: true,
    write: (config, file) => void Object.assign(config.loop, file === undefined ? { agents: null, agentsDigest: null } : runAgentsAt(file)),
    // A module is the same one wherever it lies (its digest); where it lies now changes no call.
    resume: [fileIdentity(AGENTS_FILE), { ...filePlace(AGENTS_FILE), shapesCalls: false }],
  }),
  setting<number>({ flags: '--n-candidates <n>', section: 'loop', help: 'candidates per iteration, N', parse: integer(1, 1024), default: 8, demo: DEMO.nCandidates, shapesCalls: true, field: field('loop', 'nCandidates') }),
  setting<number>({ flags: '--n-verifications <n>', section: 'loop', help: 'verifications per candidate, M', parse: integer(1, 1024), default: 8, demo: DEMO.nVerifications, shapesCalls: true, field: field('loop', 'nVerifications') }),
  setting<number>({ flags: '--max-iterations <n>', section: 'loop', help: 'iterations per problem, T (on --resume: the total target, not below the iterations done)', parse: integer(1, 10_000), default: 20, demo: DEMO.maxIterations, shapesCalls: false, field: field('loop', 'maxIterations') }),
  setting<number>({ flags: '--epsilon <x>', section: 'loop', help: 'explore probability per candidate from iteration 1 on', parse: decimal(0, 1), default: 0.2, shapesCalls: true, field: field('loop', 'epsilon') }),
  setting<boolean>({
    flags: '--no-proof',
    section: 'loop',
    help: 'short answers in \\boxed{} graded against the reference (default: proof problems)',
    default: true,
    shapesCalls: true,
    field: field('loop', 'proof'),
    resolve: (proof, { demo }) => !demo && proof !== false,
  }),
  setting<number>({ flags: '--seed <n>', section: 'loop', help: 'seed of every random choice and of the per-call sampling seeds', parse: integer(0, 2 ** 31 - 1), default: 0, shapesCalls: true, field: field('loop', 'seed') }),
  setting<number>({
    flags: '--jaccard-threshold <x>',
    section: 'loop',
    help: 'a new bank record is dropped when its Jaccard similarity to a kept one is at least this',
    parse: decimal(0, 1),
    default: 0.7,
    shapesCalls: true,
    field: field('loop', 'jaccardThreshold'),
  }),
  setting<number>({
    flags: '--jaccard-shingle <n>',
    section: 'loop',
    help: 'words per shingle the Jaccard similarity compares: 3 drops near-verbatim repeats; 1 compares word sets, which also drops rewordings',
    parse: integer(1, 16),
    default: 3,
    shapesCalls: true,
    field: field('loop', 'jaccardShingle'),
    before: 3,
  }),
  setting<number>({
    flags: '--bank-max-records <n>',
    section: 'loop',
    help: 'records each bank keeps at most: the oldest are evicted first (0: no limit); rse keeps every record, as its upstream does',
    parse: integer(0),
    default: 64,
    shapesCalls: true,
    field: field('loop', 'bankMaxRecords'),
    // Runs made before the flag existed kept every record.
    before: 0,
  }),
  setting<number>({ flags: '--active-problems <n>', section: 'loop', help: 'problems running at once (0: all)', parse: integer(0), default: 0, shapesCalls: false, field: field('loop', 'activeProblems') }),
  setting<Schedule>({
    flags: '--schedule <mode>',
    section: 'loop',
    help: 'pipelined: each call starts as soon as its inputs exist; barrier: each phase of a problem waits for the whole previous phase (for comparison)',
    choices: ['pipelined', 'barrier'],
    default: 'pipelined',
    // When a call starts, not what it asks: barrier and pipelined runs make the same calls.
    shapesCalls: false,
    field: field('loop', 'schedule'),
    before: 'pipelined',
  }),
];
