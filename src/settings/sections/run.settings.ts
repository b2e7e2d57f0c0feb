/**
 * Settings that choose which run a command is about, not what it does:
 * a resume, its `--force`, the demo. None is recorded in the configuration.
 */
import { setting } from '../setting.ts';

/** The demo's sizes, chosen so it finishes in well under a minute on two cores. */
export const DEMO = { maxIterations: 4, nCandidates: 8, nVerifications: 4, concurrency: 128, judgePasses: 2 } as const;

/** `--resume`, `--force`, `--demo`. */
export const RUN_SETTINGS = [
  setting<string>({
    flags: '--resume <dir>',
    section: 'run',
    help: 'continue the run in this output directory: completed calls are answered from its journal; --max-iterations is the total target',
  }),
  setting<boolean>({
    flags: '--force',
    section: 'run',
    help: 'with --resume: accept settings that change the calls (the changed calls are issued anew); on a new run: start it even when nothing can grade it (proof mode on problems with short answers and no reference solution; --no-proof on problems without answers)',
  }),
  setting<boolean>({
    flags: '--demo',
    section: 'run',
    help: `run the bundled demo: problems/demo.jsonl, --no-proof, ${DEMO.maxIterations} iterations, N=${DEMO.nCandidates}, M=${DEMO.nVerifications}`,
  }),
];
