/**
 * The per-problem details a report opens from its problem table: each
 * iteration's candidates (answer, grade, calibrated score, judge verdicts and
 * the start of the summary), the bank sizes after it, and the final banks'
 * records. Read from the store by streaming; texts are cut short so that a
 * report of a large run stays a file a browser opens.
 */
import type { Store } from '../store/store.ts';

/** How much of a summary or bank record the report shows. */
const TEXT_LIMIT = 240;

/** One candidate as the details show it. */
export interface CandidateDetail {
  candidate: number;
  source: string;
  answer: string | null;
  correct: boolean | null;
  correctJudge: number | null;
  score: number | null;
  summary: string;
}

/** One iteration of one problem. */
export interface IterationDetail {
  iteration: number;
  candidates: CandidateDetail[];
  experience: number | null;
  guidelines: number | null;
}

/** Everything the details of one problem show. */
export interface ProblemDetail {
  /** The problem's position in the run's input: how `tmas view` addresses it. */
  ordinal: number;
  iterations: IterationDetail[];
  /** The records of the banks after the problem's last iteration. */
  finalBanks: { experience: string[]; guidelines: string[] };
}

function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TEXT_LIMIT ? `${line.slice(0, TEXT_LIMIT - 1)}…` : line;
}

/** Reads the details of every problem of a run, by problem id. */
export async function readDetails(store: Store): Promise<Map<string, ProblemDetail>> {
  const details = new Map<string, ProblemDetail>();
  const last = new Map<string, { ordinal: number; iteration: number }>();
  for await (const record of store.iterationRecords({}, ['problem', 'ordinal', 'iteration', 'candidates'])) {
    let detail = details.get(record.problem);
    if (!detail) {
      detail = { ordinal: record.ordinal, iterations: [], finalBanks: { experience: [], guidelines: [] } };
      details.set(record.problem, detail);
    }
    const banks = await store.getBanks(record.ordinal, record.iteration);
    detail.iterations.push({
      iteration: record.iteration,
      candidates: record.candidates.map((c) => ({
        candidate: c.candidate,
        source: c.source,
        answer: c.answer,
        correct: c.correct,
        correctJudge: c.correctJudge ?? null,
        score: c.summaryScore,
        summary: cut(c.summary),
      })),
      experience: banks?.experience.length ?? null,
      guidelines: banks?.guidelines.length ?? null,
    });
    last.set(record.problem, { ordinal: record.ordinal, iteration: record.iteration });
  }
  for (const [problem, where] of last) {
    const banks = await store.getBanks(where.ordinal, where.iteration);
    const detail = details.get(problem);
    if (!banks || !detail) continue;
    detail.finalBanks = {
      experience: banks.experience.map((r) => cut(`[${r.kind}] ${r.text}`)),
      guidelines: banks.guidelines.map((r) => cut(`${r.strategy} (outcome: ${r.outcome})`)),
    };
  }
  return details;
}
