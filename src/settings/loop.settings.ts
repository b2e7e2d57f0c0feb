/** Settings of the method and its loop: the strategy, N, M, T, ε, the seed, the banks, the schedule. */
import { STRATEGIES } from '../../machines/strategies/index.ts';
import { strategyOptionsOf } from './strategy-flags.ts';
import { runAgentsAt } from '../host/run-agents.ts';
import { decimal, integer } from './parsers.ts';
import { DEMO } from './run.settings.ts';
import { setting } from './setting.ts';
import { fileIdentity, filePlace } from './file-identity.ts';

/** `--strategy`, `--agents`, N, M, T, ε, the seed, the banks and the schedule. */
export const LOOP_SETTINGS = [
  setting<string>({
    flags: '--strategy <name>',
    section: 'loop',
    help: `the method: ${Object.keys(STRATEGIES).join(', ')}`,
    default: 'tmas',
    shapesCalls: true,
    // The name the registry resolved (a user's plugin too), and that strategy's own flags, defaults filled in.
    toConfig: (_, { strategy, flags }) => {
      const options = strategyOptionsOf(strategy, flags);
      return { strategy: strategy.name, ...(Object.keys(options).length === 0 ? {} : { strategyOptions: options }) };
    },
    // Another strategy brings its own options.
    resume: [
      {
        read: (c) => c.strategy,
        write: (t, s) => {
          t.strategy = s.strategy;
          if (s.strategyOptions === undefined) delete t.strategyOptions;
          else t.strategyOptions = { ...s.strategyOptions };
        },
      },
    ],
  }),
  setting<string>({
    flags: '--agents <file>',
    section: 'loop',
    help: 'a TS or JS module exporting defineAgents({...}): replaces roles of the chosen strategy (docs/extending/agents-module.md)',
    shapesCalls: true,
    toConfig: (file) => (file === undefined ? {} : runAgentsAt(file)),
    // A module is the same one wherever it lies (its digest); where it lies now changes no call.
    resume: [fileIdentity('agents', 'agentsDigest'), { ...filePlace('agents'), shapesCalls: false }],
  }),
  setting<number>({ flags: '--n-candidates <n>', section: 'loop', help: 'candidates per iteration, N', parse: integer(1, 1024), default: 8, demo: DEMO.nCandidates, shapesCalls: true, config: 'nCandidates' }),
  setting<number>({ flags: '--n-verifications <n>', section: 'loop', help: 'verifications per candidate, M', parse: integer(1, 1024), default: 8, demo: DEMO.nVerifications, shapesCalls: true, config: 'nVerifications' }),
  setting<number>({ flags: '--max-iterations <n>', section: 'loop', help: 'iterations per problem, T (on --resume: the total target)', parse: integer(1, 10_000), default: 20, demo: DEMO.maxIterations, shapesCalls: false, config: 'maxIterations' }),
  setting<number>({ flags: '--epsilon <x>', section: 'loop', help: 'explore probability per candidate from iteration 1 on', parse: decimal(0, 1), default: 0.2, shapesCalls: true, config: 'epsilon' }),
  setting<boolean>({
    flags: '--no-proof',
    section: 'loop',
    help: 'short answers in \\boxed{} graded against the reference (default: proof problems)',
    default: true,
    shapesCalls: true,
    config: 'proof',
    resolve: (proof, { demo }) => (demo ? false : proof),
  }),
  setting<number>({ flags: '--seed <n>', section: 'loop', help: 'seed of every random choice and of the per-call sampling seeds', parse: integer(0, 2 ** 31 - 1), default: 0, shapesCalls: true, config: 'seed' }),
  setting<number>({
    flags: '--jaccard-threshold <x>',
    section: 'loop',
    help: 'a new bank record is dropped when its Jaccard similarity to a kept one is at least this',
    parse: decimal(0, 1),
    default: 0.7,
    shapesCalls: true,
    config: 'jaccardThreshold',
  }),
  setting<number>({
    flags: '--jaccard-shingle <n>',
    section: 'loop',
    help: 'words per shingle the Jaccard similarity compares: 3 drops near-verbatim repeats; 1 compares word sets, which also drops rewordings',
    parse: integer(1, 16),
    default: 3,
    shapesCalls: true,
    config: 'jaccardShingle',
  }),
  setting<number>({
    flags: '--bank-max-records <n>',
    section: 'loop',
    help: 'records each bank keeps at most: the oldest are evicted first (0: no limit); rse keeps every record, as its upstream does',
    parse: integer(0),
    default: 64,
    shapesCalls: true,
    config: 'bankMaxRecords',
  }),
  setting<number>({ flags: '--active-problems <n>', section: 'loop', help: 'problems running at once (0: all)', parse: integer(0), default: 0, shapesCalls: false, config: 'activeProblems' }),
  setting<string>({
    flags: '--schedule <mode>',
    section: 'loop',
    help: 'pipelined: each call starts as soon as its inputs exist; barrier: each phase of a problem waits for the whole previous phase (for comparison)',
    choices: ['pipelined', 'barrier'],
    default: 'pipelined',
    config: 'schedule',
  }),
];
