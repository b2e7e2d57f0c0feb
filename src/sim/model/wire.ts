/**
 * Reads the prompt wire format of `machines/prompt.ts`: the `<problem>` block
 * that opens every user message, and the tagged parts after it (`<rollouts>`,
 * `<experience>`, `<guidelines>`, `<solution>`, `<verifications>`). Parts are
 * joined with a blank line, so an opening tag is a line of its own.
 */
import type { Catalogue, SimProblem } from './catalogue.ts';
import type { AskedRole, SimRoles } from './sim-roles.ts';

/** The role named by a system message ("You are the X agent") and its format, when it is one of `roles`; else null. */
export function roleOf(system: string, roles: SimRoles): AskedRole | null {
  const named = /You are the (\w+) agent/i.exec(system)?.[1]?.toLowerCase();
  const format = named === undefined ? undefined : roles.get(named);
  return named === undefined || format === undefined ? null : { role: named, format };
}

/** The problem a user message is about, and the text after its `<problem>` block. */
export function splitProblem(user: string, catalogue: Catalogue): { problem: SimProblem; rest: string } {
  const OPEN = '<problem>\n';
  const CLOSE = '\n</problem>';
  if (!user.startsWith(OPEN)) return { problem: catalogue.lookup(user), rest: '' };
  // A statement that itself contains the closing tag is only found by trying each such statement.
  for (const question of catalogue.awkward) {
    if (user.startsWith(`${OPEN}${question}${CLOSE}`)) {
      return { problem: catalogue.lookup(question), rest: user.slice(OPEN.length + question.length + CLOSE.length) };
    }
  }
  const end = user.indexOf(CLOSE, OPEN.length);
  if (end < 0) return { problem: catalogue.lookup(user.slice(OPEN.length)), rest: '' };
  return { problem: catalogue.lookup(user.slice(OPEN.length, end)), rest: user.slice(end + CLOSE.length) };
}

/**
 * A bare prompt (no system message, no `<problem>` block, as PaCoRe sends):
 * the problem is the whole message, or the known statement the message
 * quotes; the rest is what follows that statement (reference responses).
 */
export function splitBarePrompt(user: string, catalogue: Catalogue): { problem: SimProblem; rest: string } {
  const quoted = catalogue.quotedIn(user);
  if (quoted === null || quoted === user) return { problem: catalogue.lookup(user), rest: '' };
  return { problem: catalogue.lookup(quoted), rest: user.slice(user.indexOf(quoted) + quoted.length) };
}

/** The lines strictly between an opening and a closing tag line, or null when the block is absent. */
function block(text: string, tag: string): string | null {
  const open = new RegExp(`^<${tag}>$`, 'm').exec(text);
  if (!open) return null;
  const start = open.index + open[0].length;
  const close = text.indexOf(`\n</${tag}>`, start);
  return text.slice(start, close < 0 ? text.length : close);
}

/** Which kind of solution prompt this is (docs/concepts/tmas-loop.md). */
export type SolutionMode = 'normal' | 'experience' | 'guideline';

/** The solution prompt's mode, from the blocks it carries. */
export function solutionModeOf(rest: string): SolutionMode {
  if (/^<rollouts>$/m.test(rest)) return 'experience';
  if (/^<guidelines>$/m.test(rest)) return 'guideline';
  return 'normal';
}

/** A rollout header of R(t-1), with the strategy its text names (when the text was kept). */
export interface RolloutView {
  candidate: number;
  answer: string | null;
  score: number | null;
  strategy: string | null;
}

const ROLLOUT_HEADER = /^<rollout candidate="(\d+)" answer="(.*?)" score="([^"]*)">$/gm;

/** The rollouts of a prompt, in prompt order. */
export function readRollouts(rest: string): RolloutView[] {
  const section = block(rest, 'rollouts');
  if (section === null) return [];
  const headers = [...section.matchAll(ROLLOUT_HEADER)];
  return headers.map((header, i) => {
    const body = section.slice((header.index ?? 0) + header[0].length, headers[i + 1]?.index ?? section.length);
    const answer = header[2] ?? 'none';
    const score = Number(header[3]);
    return {
      candidate: Number(header[1]),
      answer: answer === 'none' || answer === '' ? null : answer,
      score: header[3] === 'none' || !Number.isFinite(score) ? null : score,
      strategy: /^Strategy:\s*(.+?)\s*$/m.exec(body)?.[1] ?? null,
    };
  });
}

/** One line of the `<experience>` block. */
export interface ExperienceLine {
  kind: 'conclusion' | 'pitfall';
  text: string;
}

/** The records of the `<experience>` block. */
export function readExperience(rest: string): ExperienceLine[] {
  const section = block(rest, 'experience');
  if (section === null) return [];
  // `proposition` is how the rse bank names a conclusion.
  return [...section.matchAll(/^- \[(conclusion|proposition|pitfall)\] (.*)$/gm)].map((m) => ({
    kind: m[1] === 'pitfall' ? 'pitfall' : 'conclusion',
    text: m[2] ?? '',
  }));
}

/** The strategy names of the `<guidelines>` block. */
export function readGuidelines(rest: string): string[] {
  const section = block(rest, 'guidelines');
  if (section === null) return [];
  return [...section.matchAll(/^- (.+?) \(outcome: .*\)$/gm)].map((m) => m[1] ?? '');
}

/** The candidate text of the `<solution>` block, or null when there is none. */
export function readSolution(rest: string): string | null {
  const OPEN = '<solution>\n';
  const start = rest.indexOf(OPEN);
  if (start < 0) return null;
  const from = start + OPEN.length;
  // Summary prompts put verifications after the solution; those must not be read as part of it.
  const beforeVerifications = rest.indexOf('\n</solution>\n\n<verifications>', from);
  const end = beforeVerifications >= 0 ? beforeVerifications : rest.lastIndexOf('\n</solution>');
  return rest.slice(from, end < from ? rest.length : end);
}

/** The scores of the `<verifications>` block; 'none' scores are left out. */
export function readVerificationScores(rest: string): number[] {
  const section = block(rest, 'verifications');
  if (section === null) return [];
  return [...section.matchAll(/^<verification index="\d+" score="([^"]*)">$/gm)]
    .map((m) => Number(m[1]))
    .filter((score) => Number.isFinite(score));
}
