/**
 * Prompt building blocks shared by the role actors.
 *
 * A prompt is a system message plus a user message made of named parts. Parts
 * that may be left out when the prompt does not fit the context window carry a
 * `drop` rank: the pool drops the lowest rank first (DESIGN.md section 5).
 * The tags below (`<problem>`, `<solution>`, `<rollout …>`) are also what the
 * simulated model reads, so they are the wire format between prompts and the sim.
 */
import type { ExperienceRecord, GuidelineRecord, Rollout } from '../src/kernel/protocol.ts';

/** One piece of the user message. */
export interface PromptPart {
  id: string;
  text: string;
  /** Drop rank: parts with a rank may be left out, lowest rank first. */
  drop?: number;
  /** At most this many tokens of the part are kept: its first and last halves, with a line saying how many were left out (the judge's view). */
  maxTokens?: number;
}

/** What a role asks the model: the system message and the parts of the user message. */
export interface PromptSpec {
  system: string;
  parts: PromptPart[];
}

/** Drop ranks: rollout text goes first (lowest score first), then bank records (oldest first). */
const ROLLOUT_TEXT_RANK = 0;
const BANK_RECORD_RANK = 100_000;

/** The problem statement block. Never dropped. */
export function problemPart(question: string): PromptPart {
  return { id: 'problem', text: `<problem>\n${question}\n</problem>` };
}

/** A fixed instruction part. Never dropped. */
export function instructionPart(text: string): PromptPart {
  return { id: 'instructions', text };
}

function formatScore(score: number | null): string {
  return score === null ? 'none' : score.toFixed(3);
}

/**
 * R(t-1) as prompt parts: per rollout a header (answer, score, summary) that is
 * always kept, and its solution text, which is the first thing dropped when the
 * prompt is too long: lowest-scored rollouts first.
 */
export function rolloutParts(rollouts: Rollout[]): PromptPart[] {
  const byScore = [...rollouts].sort(
    (a, b) => (a.score ?? -1) - (b.score ?? -1) || a.candidate - b.candidate,
  );
  const rank = new Map(byScore.map((rollout, position) => [rollout.candidate, position]));
  const parts: PromptPart[] = [{ id: 'rollouts-open', text: '<rollouts>' }];
  for (const rollout of rollouts) {
    parts.push({
      id: `rollout-${rollout.candidate}`,
      text:
        `<rollout candidate="${rollout.candidate}" answer="${rollout.answer ?? 'none'}" score="${formatScore(rollout.score)}">\n` +
        `Summary: ${rollout.summary || '(none)'}`,
    });
    parts.push({
      id: `rollout-${rollout.candidate}-text`,
      text: `Solution:\n${rollout.text}\n</rollout>`,
      drop: ROLLOUT_TEXT_RANK + (rank.get(rollout.candidate) ?? 0),
    });
  }
  parts.push({ id: 'rollouts-close', text: '</rollouts>' });
  return parts;
}

/** E(t-1) as prompt parts, one per record; oldest records are dropped first. */
export function experienceParts(bank: ExperienceRecord[]): PromptPart[] {
  const records = bank.map((record, index) => ({
    id: `experience-${index}`,
    text: `- [${record.kind}] ${record.text}`,
    drop: BANK_RECORD_RANK + index,
  }));
  return [{ id: 'experience-open', text: '<experience>' }, ...records, { id: 'experience-close', text: '</experience>' }];
}

/** G(t-1) as prompt parts, one per record; oldest records are dropped first. */
export function guidelineParts(bank: GuidelineRecord[]): PromptPart[] {
  const records = bank.map((record, index) => ({
    id: `guideline-${index}`,
    text: `- ${record.strategy} (outcome: ${record.outcome})`,
    drop: BANK_RECORD_RANK + index,
  }));
  return [{ id: 'guidelines-open', text: '<guidelines>' }, ...records, { id: 'guidelines-close', text: '</guidelines>' }];
}

/** A candidate solution block, as the verification, summary and judge agents see it. */
export function solutionPart(text: string): PromptPart {
  return { id: 'solution', text: `<solution>\n${text}\n</solution>` };
}
