/**
 * The roles of `rse` (Recycling Search Experience, WangXinglin/RSE). The
 * Rollout agent solves with the problem's experience bank in its system
 * prompt, as upstream's code/experience_guided_search.py does: the pitfalls
 * are to be avoided, the propositions are hypotheses to check before use,
 * never facts to rely on. The Distill agent turns one rollout (its reasoning
 * and its answer) into verified propositions and critical pitfalls as one JSON
 * object, with the inclusion rules and formats of upstream's
 * code/experience_distillation.py, restated in our words. The bank is shown in
 * the `<experience>` line format the simulator reads (`- [pitfall] …`,
 * `- [proposition] …`).
 */
import { extractAnswer } from '../../../src/grader/index.ts';
import type { BankShown, ExperienceRecord, FittedValues } from '../../../src/kernel/protocol.ts';
import type { TemplateDrop, TemplatePromptPart } from '../../prompt.ts';
import { bankRecordRole } from '../../bank-record-role.ts';
import { COMMON_VARIABLES, PROBLEM_BLOCK, problemValues, quotedSolutionValues, SOLUTION_BLOCK } from '../../role-template.ts';
import { answerFields, callInfo, parseJsonReply, replyBase } from '../../reply.ts';
import { createRoleMachine, passesPerCandidate, type RoleOptions } from '../../role.machine.ts';
import { onePerCandidate, templateRole } from '../../template-role.ts';
import { answerInstruction, roleLine } from '../../kit.ts';

/** Distillations of one rollout at most: upstream asks once and retries up to 5 times while the reply is not valid JSON. Index-keyed: index = candidate × this + attempt. */
export const MAX_DISTILL_ATTEMPTS = 6;

/** How a rollout is told to use the bank: upstream's operational guidelines, in our words. */
const GUIDANCE = [
  'Earlier attempts at this very problem were analysed into propositions (intermediate results) and critical pitfalls (errors and dead ends). Use them only to navigate; solve the problem from its own definitions.',
  '1. Propositions are hypotheses about the structure of the problem, not established facts. Prefer the ones that give an abstract insight (a simplification, an identity, an invariant, a symmetry). Distrust bare numerical claims and claimed final answers: never use a number from the bank unless you have derived the reasoning that produces it yourself. Before taking a shortcut a proposition offers, check its premise; keep it only if the premise holds and agrees with your own derivation, and discard it at once if it contradicts your reasoning.',
  '2. Never repeat a critical pitfall. When you reach a decision point a pitfall describes, take a different route.',
  '3. If you derive contradictory results (two values for one quantity, say), do not just pick the easier or more familiar one: the contradiction usually means a basic assumption (the configuration, a definition) is wrong, so go back to the problem statement and question your initial setup.',
].join('\n');

/** One record of the bank as the rollout's prompt shows it, with its age (its position in the bank, oldest first). */
interface BankLine {
  line: string;
  age: number;
}

/** The bank's lines: pitfalls first, then propositions, each list in lexicographic order, as upstream aggregates them. */
function bankLines(experience: ExperienceRecord[]): BankLine[] {
  const sorted = (kind: ExperienceRecord['kind'], tag: string) =>
    experience
      .flatMap((record, age) => (record.kind === kind ? [{ text: record.text, age }] : []))
      .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      .map(({ text, age }) => ({ line: `- [${tag}] ${text}`, age }));
  return [...sorted('pitfall', 'pitfall'), ...sorted('conclusion', 'proposition')];
}

/** The bank's lines as the system message shows them. */
export function experienceLines(experience: ExperienceRecord[]): string[] {
  return bankLines(experience).map(({ line }) => line);
}

/**
 * The bank's lines as a template's `experience`, each of which may be left out
 * when the prompt does not fit: the oldest records first (lowest position in
 * the bank), so the newest stay. Upstream keeps the whole bank and has no
 * order for this; its deduplication, between a new record and an earlier
 * one alike, keeps the new one, and so does this order. `prefix` keeps the
 * ids of the system message's copy apart from a user template's.
 */
function bankValues(experience: ExperienceRecord[], prefix: string): { lines: string[]; drops: TemplateDrop[] } {
  const lines = bankLines(experience);
  return { lines: lines.map(({ line }) => line), drops: lines.map(({ age }, position) => ({ id: `${prefix}experience-${age}`, path: ['experience', position], drop: age })) };
}

/**
 * The system message of a rollout given a bank, as upstream writes it: the
 * guidance, the bank, the closing instruction. With every record left out to
 * fit the window, it is the plain solver's line alone.
 */
const BANK_SYSTEM = [
  '{{ lead }}',
  '{%- if experience %}',
  '',
  '{{ guidance }}',
  'Experience bank (pitfalls: strictly avoid; propositions: verify before use):',
  '<experience>',
  '{% for line in experience %}',
  '{{ line }}',
  '{% endfor %}',
  '</experience>',
  '{{ closing }}',
  '{%- endif %}',
].join('\n');

/** What a rollout is told after the bank. */
const CLOSING = 'Reason step by step; consult the bank critically: avoid the pitfalls, and use a proposition only when it speeds up work you have checked.';

/**
 * The system message of a rollout: with no bank (iteration 0), the plain
 * solver's; else the guidance and the bank, as a template whose records the
 * fit leaves out, oldest first, until the prompt fits the window.
 */
export function rolloutSystem(experience: ExperienceRecord[], options: RoleOptions): string | TemplatePromptPart {
  const lead = roleLine('Rollout', answerInstruction(options.proof));
  if (experience.length === 0) return lead;
  const { lines, drops } = bankValues(experience, '');
  return { id: 'system', template: BANK_SYSTEM, variables: { lead, guidance: GUIDANCE, experience: lines, closing: CLOSING }, drops };
}

/** What a rollout's reply says of the bank its prompt held and showed, from the fit of its system message (none without a bank). */
function bankShown(values: FittedValues | undefined): { bank?: BankShown } {
  return values === undefined ? {} : { bank: { held: values.values, shown: values.kept, heldTokens: values.tokens, shownTokens: values.keptTokens } };
}

/** The Rollout agent's definition. */
export const rolloutRole = templateRole('rollout', {
  kind: 'solution',
  endpoint: 'solution',
  ...onePerCandidate('rollout'),
  /** The Rollout agent's user message: the problem alone, as upstream sends it (the bank is in the system message). */
  template: {
    source: PROBLEM_BLOCK,
    variables: {
      problem: COMMON_VARIABLES.problem,
      proof: COMMON_VARIABLES.proof,
      experience: {
        shape: { listOf: 'string' },
        about:
          "the problem's experience bank as the system message shows it, one line each ('- [pitfall] …' first, then '- [proposition] …'); empty in the first iteration; " +
          'when the prompt does not fit, the oldest records are left out, here and in the system message',
      },
    },
    system: (request, options) => rolloutSystem(request.experience, options),
    values: (request, options) => {
      const { lines, drops } = bankValues(request.experience, 'user-');
      return { variables: problemValues(request, options, { experience: lines }), drops };
    },
  },
  reply: (request, output, options) => ({
    type: 'rollout.completed',
    ...replyBase(request),
    candidate: request.candidate,
    text: output.content,
    reasoning: output.reasoning,
    ...answerFields(extractAnswer(output.content), output, options.proof),
    ...bankShown(output.systemValues),
    call: callInfo(output),
  }),
});

/** What the distiller reads of a rollout: its reasoning, then its answer text, as upstream joins them. */
export function attemptText(text: string, reasoning: string | null): string {
  return reasoning ? `${reasoning}\n\n${text}` : text;
}

/**
 * The parse error of a JSON object with neither list: it adds nothing to the
 * bank and is unusable, yet the distiller is not asked again, as upstream
 * retries only replies that are not valid JSON.
 */
export const WITHOUT_LISTS = 'a JSON object with neither "verified_propositions" nor "critical_pitfalls"';

/** Whether a distillation with this parse error is asked again: upstream retries only invalid JSON. */
export function distillRetried(parseError: string | null): boolean {
  return parseError !== null && parseError !== WITHOUT_LISTS;
}

/**
 * Parses the Distill agent's JSON, read after its last `</think>`: any JSON
 * object parses (upstream retries only unparseable replies); the string
 * items of `verified_propositions` and `critical_pitfalls` are kept, and
 * `parseError` is WITHOUT_LISTS when the object has neither. Throws a
 * SyntaxError saying what is wrong when the reply is not a JSON object.
 */
export function parseDistillation(text: string): { propositions: string[]; pitfalls: string[]; parseError: string | null } {
  const value = parseJsonReply(text.split('</think>').at(-1) ?? text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SyntaxError('the reply is not a JSON object');
  const strings = (list: unknown): string[] => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
  const fields = value as Record<string, unknown>;
  const lists = 'verified_propositions' in fields || 'critical_pitfalls' in fields;
  return { propositions: strings(fields.verified_propositions), pitfalls: strings(fields.critical_pitfalls), parseError: lists ? null : WITHOUT_LISTS };
}

/** The distiller's instructions: upstream's two tasks, their rules and formats, in our words. */
const DISTILL_TASK = [
  'Build an experience bank from the attempt above for the next attempts at this problem: the next solver will use the verified propositions as anchors and avoid the critical pitfalls.',
  'Stay neutral: you do not know the correct answer, so make no assumption about whether the attempt\'s final answer is right. Treat the attempt as an unverified hypothesis and check each step on logic and mathematics alone.',
  '',
  'Task 1, "verified_propositions" (list of strings): only sound, reusable facts. Keep a statement only if you can verify it yourself from standard mathematics or from earlier valid steps; state every condition it needs (e.g. "for x ≠ 0, …"); split compound claims into the smallest reusable pieces; leave out anything only "probably true" or checked on examples without a derivation; make each one self-contained, naming variables and expressions instead of "it" or "the equation". Look for correct intermediate results, equivalent forms of equations, implications and domain constraints, and theorems applied with their hypotheses visibly met. Format: "<statement with its conditions>. (Source: <derivation or method>)".',
  '',
  'Task 2, "critical_pitfalls" (list of strings): warnings for later attempts. Look for dead ends (valid approaches that lead to unmanageable complexity or circularity), fatal flaws (non-equivalent transformations, confusing necessary and sufficient conditions, calculation errors), potential risks (steps that skip a needed check, such as dividing by a quantity that may vanish or squaring without checking for extraneous roots) and missing proof obligations (ignored cases, theorems used without their preconditions). Format: "<context or step> -> <Dead End | Fatal Flaw | Potential Risk> -> <trigger; what was done wrong or not checked; consequence>".',
  '',
  'Output only the raw JSON object, without Markdown fences or any other text, with LaTeX backslashes escaped for JSON:',
  '{"verified_propositions": ["..."], "critical_pitfalls": ["..."]}',
].join('\n');

/** The Distill agent's definition. An invalid reply carries `parseError`; the problem actor retries it. */
export const distillRole = bankRecordRole('distill', {
  endpoint: 'experience',
  index: (request) => request.candidate * MAX_DISTILL_ATTEMPTS + request.attempt,
  subject: passesPerCandidate(MAX_DISTILL_ATTEMPTS, (attempt) => `distill attempt ${attempt}`),
  /** The Distill agent's user message: the problem and the attempt (upstream puts them after its instructions; here the problem opens every user message, as the simulator reads it), then the instructions. */
  template: {
    source: `${PROBLEM_BLOCK}

${SOLUTION_BLOCK}

${DISTILL_TASK}`,
    variables: { ...COMMON_VARIABLES, solution: { shape: 'string', about: "the attempt: the rollout's reasoning, a blank line, then its answer text (the answer text alone when it has no reasoning); its middle is left out, with a line saying how many tokens, when the prompt would not fit the window" } },
    system: () => roleLine('Distill', 'You distil a solution attempt into reusable experience, and answer with one JSON object only.'),
    values: quotedSolutionValues,
  },
  parse: (_, output) => parseDistillation(output.content),
  unparsed: (parseError) => ({ propositions: [], pitfalls: [], parseError }),
  reply: (request, parsed, call) => ({ type: 'distill.completed', ...replyBase(request), candidate: request.candidate, attempt: request.attempt, ...parsed, call }),
  retried: false,
});

/** The Rollout agent's actor definition. */
export const rolloutMachine = createRoleMachine(rolloutRole);
/** The Distill agent's actor definition. */
export const distillMachine = createRoleMachine(distillRole);
