/**
 * `tmas replay DIR`: re-runs the actors of a finished run with every
 * completion served from its journal and no network, and reports whether the
 * messages are identical to the logged ones or the first one that diverges.
 *
 * The run's store is copied to a scratch directory and its iteration marks
 * and banks are cleared, so the replay starts every problem from iteration 0
 * while the journal (and the old log, for comparison) stay. The run directory
 * itself is never written. Messages are matched by (type, correlation), since
 * a run at concurrency > 1 logs them in arrival order.
 */
import type { RunConfig, Secrets } from '../host/config.ts';
import type { Envelope, Message } from '../kernel/protocol.ts';
import { resolveStrategy } from '../host/plugins.ts';
import { checkProtocol } from '../host/resume.ts';
import { checkRunAgents } from '../host/run-agents.ts';
import { checkRunTokenizer, relocateRunTokenizer } from '../host/run-tokenizer.ts';
import { runEvaluation } from '../host/run-evaluation.ts';
import { seqKey, Store } from '../store/store.ts';
import { makeScratchDir, removeScratchDir } from '../store/scratch.ts';
import { openRun } from './open-run.ts';

/** What a replay found. */
export interface ReplayReport {
  identical: boolean;
  compared: number;
  /** The first replayed message that differs from the log (or is not in it), with the logged version. */
  divergence: { replayed: Envelope; logged: Envelope | null } | null;
  /** Logged messages the replay never produced. */
  notReproduced: number;
  /** Calls whose request changed, so the journal had no answer (sent to the endpoint with --live). */
  misses: Array<{ role: string; problem: string; iteration: number; index: number }>;
}

/**
 * Problems replayed at once. Served from the journal, a problem runs as fast
 * as the CPU allows, so more at once only holds more state: on a run of
 * 100 problems and 199,402 messages, all 100 at once peaked at 662 MB RSS in
 * 74 s; 8 at once at 485 MB in 56 s; 16 at 503 MB in 61 s; 4 at 476 MB in 57 s.
 * It does not change what is replayed: the active-problem limit shapes no call.
 */
const REPLAY_ACTIVE_PROBLEMS = 8;

function keyOf(message: Message): string {
  return `${message.type}\u0000${message.correlation}`;
}

/** Replays a run. `changes` are settings to alter (e.g. the Jaccard threshold); `live` sends journal misses to the endpoint. */
export async function replayRun(
  runDir: string,
  options: {
    changes?: Partial<Pick<RunConfig, 'jaccardThreshold' | 'agents' | 'agentsDigest'>>;
    live?: boolean;
    secrets: Secrets;
    stderr?: (line: string) => void;
    /** Where the run's own tokenizer lies now (`--tokenizer-path`), when the run or the tokenizer was moved. */
    tokenizerPath?: string;
  },
): Promise<ReplayReport> {
  // Removed on every exit path, or by the next command after a kill -9 (scratch.ts).
  const work = await makeScratchDir('replay');
  try {
    // The copy is the replay's own store: the run directory is never written.
    const { store: copy, manifest } = await openRun(runDir, work);
    let logEnd: number;
    let problems;
    try {
      checkProtocol(manifest, runDir);
      logEnd = await copy.nextSeq();
      problems = await copy.loadProblems();
      await copy.iterations().clear();
      await copy.banks().clear();
    } finally {
      await copy.close();
    }

    // Where the run's tokenizer lies now: where the user says (checked to be the same one), else where the manifest says.
    const located =
      options.tokenizerPath === undefined
        ? checkRunTokenizer(manifest.config, runDir, { force: false, command: 'tmas replay' })
        : relocateRunTokenizer(manifest.config, options.tokenizerPath, runDir);
    // Its agents module: the one given (a change, or the same module moved), else the manifest's, still there and the same.
    const stored = options.changes?.agents === undefined ? checkRunAgents(located, runDir, { force: false, command: 'tmas replay' }) : located;
    const activeProblems = stored.activeProblems === 0 ? REPLAY_ACTIVE_PROBLEMS : Math.min(stored.activeProblems, REPLAY_ACTIVE_PROBLEMS);
    const config: RunConfig = { ...structuredClone(stored), ...options.changes, outputDir: work, activeProblems };
    const quiet = { stdout: () => {}, stderr: options.stderr ?? (() => {}) };
    await runEvaluation(config, options.secrets, problems, quiet, { resume: true, offline: !options.live, strategy: await resolveStrategy(config) });
    return await compareLogs(work, logEnd);
  } finally {
    await removeScratchDir(work);
  }
}

/**
 * Compares the replayed messages (seq ≥ logEnd) with the logged ones (seq < logEnd) of one store.
 *
 * A run extended with `--resume --max-iterations` logged some messages more than once: the first
 * process's `problem.completed {iterations: 2}` and the extension's `{iterations: 3}`, its
 * `problem.started {fromIteration: 2}`. Both belong to the run's history, so a replayed message
 * matches when it equals any logged version of its (type, correlation).
 */
async function compareLogs(work: string, logEnd: number): Promise<ReplayReport> {
  const store = await Store.open(work);
  try {
    // Only keys and sequence numbers are held, never the messages; a key is deleted once the replay produced it.
    // A message may be logged more than once (a resume re-posts a stopped iteration's messages, an extended run
    // starts its problems again): the replay matches any logged version of it.
    const logged = new Map<string, number[]>();
    const answered = new Set<string>();
    for await (const envelope of store.envelopes({ lt: seqKey(logEnd) })) {
      const { message } = envelope;
      const key = keyOf(message);
      const seqs = logged.get(key);
      if (seqs) seqs.push(envelope.seq);
      else logged.set(key, [envelope.seq]);
      if (message.type.endsWith('.completed')) answered.add(message.correlation);
    }
    // A call that failed and later succeeded (on resume) is its reply: the replay, served by the journal, never fails it.
    for (const correlation of answered) logged.delete(`llm.failed\u0000${correlation}`);
    const seen = new Set<string>();
    const misses: ReplayReport['misses'] = [];
    let divergence: ReplayReport['divergence'] = null;
    let compared = 0;
    for await (const replayed of store.envelopes({ gte: seqKey(logEnd) })) {
      const { message } = replayed;
      if (message.type === 'llm.failed' && message.code === 'TMAS_REPLAY_MISS') {
        misses.push({ role: message.role, problem: message.problem, iteration: message.iteration, index: message.index });
      }
      const key = keyOf(message);
      if (seen.has(key)) continue;
      seen.add(key);
      compared++;
      const seqs = logged.get(key) ?? [];
      logged.delete(key);
      const text = JSON.stringify(message);
      let last: Envelope | null = null;
      let matched = false;
      for (const seq of seqs) {
        last = (await store.getMessage(seq)) ?? null;
        if (last && JSON.stringify(last.message) === text) {
          matched = true;
          break;
        }
      }
      if (!matched && !divergence) divergence = { replayed, logged: last };
    }
    const notReproduced = logged.size;
    return { identical: divergence === null && notReproduced === 0, compared, divergence, notReproduced, misses };
  } finally {
    await store.close();
  }
}
