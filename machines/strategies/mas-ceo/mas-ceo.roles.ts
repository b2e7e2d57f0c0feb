/**
 * The roles of `mas-ceo` (MAS-TTS, "Two Heads are Better Than One"): the CEO
 * plans each round in a fixed format, the Recruiter describes the experts,
 * the Solver writes a solution as the first expert, each Critic (one per
 * other expert) solves the problem itself and agrees exactly when its final
 * answer is the solution's (jincan333/MAS-TTS's math critic prompts and
 * `mgsm-critic-agree` parser), and the Evaluator answers correctness 0/1 with
 * advice. The CEO's token budget is the completion limit of the round's solver
 * and critic calls, as MAS-TTS sets their `max_tokens` to it
 * (environments/tasksolving_env/basic.py), and a reply cut at it is
 * continued after a cue to its answer, MAS-TTS's budget forcing
 * (machines/budget-forcing.ts).
 */
import { extractAnswer } from '../../../src/grader/index.ts';
import { COMMON_VARIABLES, PROBLEM_BLOCK, problemValues, quotedSolutionValues, shortenable, SOLUTION_BLOCK } from '../../role-template.ts';
import { answerFields, callInfo, cutOff, replyBase, statedText, unusableIf } from '../../reply.ts';
import { createRoleMachine } from '../../role.machine.ts';
import { templateRole } from '../../template-role.ts';
import { ANSWER_INSTRUCTION, roleLine } from '../../kit.ts';

/**
 * Ranges the CEO's numbers are clamped to, and what a missing field (or a
 * failed CEO call) defaults to: MAS-TTS's (output_parser.py `CEOParser`: at
 * least 2 experts, 2 when unreadable; a budget of 2048 to 32000, 32000 when
 * unreadable; agents/tasksolving_agent/ceo.py falls back to 2 experts and
 * 32000 when the CEO gives no usable plan). The cap of 5 experts is ours.
 */
export const CEO_LIMITS = { experts: { min: 2, max: 5, default: 2 }, budget: { min: 2048, max: 32_000, default: 32_000 } } as const;

function clamp(value: number, range: { min: number; max: number }): number {
  return Math.min(range.max, Math.max(range.min, Math.round(value)));
}

/** The CEO's plan, parsed from its fixed format and clamped; `parseError` names the fields that were missing. */
export function parseCeo(text: string): { decision: 'continue' | 'stop'; experts: number; direction: string; budget: number; parseError: string | null } {
  const field = (name: string) => new RegExp(`^\\W*${name}\\W*:\\s*(.+?)\\s*$`, 'im').exec(text)?.[1];
  const missing: string[] = [];
  const decisionText = field('decision')?.toLowerCase();
  if (decisionText === undefined || !/continue|stop/.test(decisionText)) missing.push('Decision');
  const experts = Number(field('experts')?.match(/\d+/)?.[0]);
  if (!Number.isFinite(experts)) missing.push('Experts');
  const budget = Number(field('budget')?.match(/\d+/)?.[0]);
  if (!Number.isFinite(budget)) missing.push('Budget');
  const direction = field('direction') ?? '';
  return {
    // Only an explicit stop stops: an unreadable decision must not end the search.
    decision: decisionText !== undefined && decisionText.includes('stop') && !decisionText.includes('continue') ? 'stop' : 'continue',
    experts: clamp(Number.isFinite(experts) ? experts : CEO_LIMITS.experts.default, CEO_LIMITS.experts),
    budget: clamp(Number.isFinite(budget) ? budget : CEO_LIMITS.budget.default, CEO_LIMITS.budget),
    direction,
    parseError: missing.length === 0 ? null : `missing or unreadable: ${missing.join(', ')}`,
  };
}

/** The CEO agent's definition. */
export const ceoRole = templateRole('ceo', {
  kind: 'plan',
  endpoint: 'solution',
  index: () => 0,
  /** The CEO agent's user message: the problem, the team's latest solution and the evaluator's advice (from the second round), and the plan's format. */
  template: {
    source: `${PROBLEM_BLOCK}

{% if solution is not none %}
${SOLUTION_BLOCK}

{% endif %}
{% if advice is not none %}
<advice>
{{ advice }}
</advice>

{% endif %}
Decide the next round. Answer in exactly this format:
Decision: continue or stop
Experts: number of experts to recruit (${CEO_LIMITS.experts.min}-${CEO_LIMITS.experts.max})
Direction: one line on what the team should try
Budget: the most tokens each expert may write this round (${CEO_LIMITS.budget.min}-${CEO_LIMITS.budget.max})`,
    variables: {
      problem: COMMON_VARIABLES.problem,
      proof: COMMON_VARIABLES.proof,
      solution: { shape: { orNone: 'string' }, about: "the team's latest solution, none in the first round" },
      advice: { shape: { orNone: 'string' }, about: "the evaluator's advice on it, none in the first round" },
    },
    system: () => roleLine('CEO', 'You lead a team of experts and decide, round by round, how to spend the compute.'),
    values: (request, options) => ({ variables: problemValues(request, options, { solution: request.solution, advice: request.advice }), ...shortenable(['solution']) }),
  },
  reply: (request, output) => {
    // A plan cut off may have lost the end of a field (the budget's digits) though every field is there: the round takes the defaults.
    const plan = parseCeo(statedText(output));
    const cutBy = cutOff(output);
    const cut = cutBy === null ? null : `the plan was ${cutBy}`;
    return { type: 'ceo.completed', ...replyBase(request), ...plan, parseError: cut ?? plan.parseError, call: callInfo(output) };
  },
});

/** The expert descriptions a recruiter reply gives (`Expert k: …` lines). */
function namedExperts(text: string): string[] {
  return [...text.matchAll(/^\W*Expert\s*\d+\W*:\s*(.+?)\s*$/gim)].map((m) => m[1] ?? '').filter(Boolean);
}

/** The expert descriptions of a recruiter reply (`Expert k: …` lines), padded with a generalist or cut to `count`. */
export function parseExperts(text: string, count: number): string[] {
  const found = namedExperts(text);
  return Array.from({ length: count }, (_, i) => found[i] ?? `A careful generalist mathematician (expert ${i + 1}).`);
}

/**
 * Why a recruiter reply is unusable, or null: it describes fewer experts than
 * asked (MAS-TTS's role assigner asks again, then fills the team with generic
 * experts; here the missing ones are generalists), or it was cut off, its last
 * expert's description with it.
 */
export function missingExperts(output: { content: string; finishReason: string }, count: number): string | null {
  const cut = cutOff(output);
  if (cut !== null) return `the team was ${cut}`;
  const found = namedExperts(output.content).length;
  return found < count ? `${found} of the ${count} "Expert k: …" lines asked for` : null;
}

/** The Recruiter agent's definition. */
export const recruiterRole = templateRole('recruiter', {
  kind: 'plan',
  endpoint: 'solution',
  index: () => 0,
  /** The Recruiter agent's user message: the problem and how many experts to describe, in which direction. */
  template: {
    source: `${PROBLEM_BLOCK}

<recruit count="{{ experts }}">
Direction: {{ direction }}
Describe {{ experts }} experts, one per line, as "Expert k: description".`,
    variables: {
      problem: COMMON_VARIABLES.problem,
      proof: COMMON_VARIABLES.proof,
      experts: { shape: 'integer', about: 'how many experts the CEO asked for' },
      direction: { shape: 'string', about: "the CEO's direction for the round" },
    },
    system: () => roleLine('Recruiter', 'You recruit the experts best suited to a problem.'),
    values: (request, options) => ({ variables: problemValues(request, options, { experts: request.experts, direction: request.direction }) }),
  },
  reply: (request, output) => ({
    type: 'recruiter.completed',
    ...replyBase(request),
    experts: parseExperts(statedText(output), request.experts),
    ...unusableIf(missingExperts(output, request.experts)),
    call: callInfo(output),
  }),
});

/** The Solver agent's definition. */
export const solverRole = templateRole('solver', {
  kind: 'solution',
  endpoint: 'solution',
  index: (request) => request.turn,
  // The round's one solution is candidate 0: each solver turn drafts or revises it.
  subject: (turn) => ({ candidate: 0, pass: turn, label: `solver turn ${turn}` }),
  maxTokens: (request) => request.budget,
  budgetForcing: true,
  /** The Solver agent's user message: a first draft, or a revision of the previous one answering the critics. */
  template: {
    source: `${PROBLEM_BLOCK}

{% if previous is not none %}
<solution>
{{ previous }}
</solution>

<critiques>
{{ critiques | join('\\n---\\n') }}
</critiques>

{% endif %}
{{ 'Solve the problem above.' if previous is none else 'Revise your solution above to answer every critique.' }} Direction: {{ direction }}. ${ANSWER_INSTRUCTION}`,
    variables: {
      problem: COMMON_VARIABLES.problem,
      proof: COMMON_VARIABLES.proof,
      direction: { shape: 'string', about: "the CEO's direction for the round" },
      budget: { shape: 'integer', about: "the CEO's token budget: the call's completion limit (not stated in the built-in prompt)" },
      previous: { shape: { orNone: 'string' }, about: "the solver's previous solution in this round, none for a first draft" },
      critiques: { shape: { listOf: 'string' }, about: "the critics' critiques of the previous solution (empty for a first draft)" },
    },
    system: (request) => roleLine('Solver', `You are ${request.expert}`),
    values: (request, options) => ({
      variables: problemValues(request, options, { direction: request.direction, budget: request.budget, previous: request.previous, critiques: request.critiques }),
      // The previous draft and each critique may be cut at their limit: each may lose its middle to fit.
      shortens: [{ id: 'previous', path: ['previous'] }, ...request.critiques.map((_, index) => ({ id: `critique-${index}`, path: ['critiques', index] }))],
    }),
  },
  reply: (request, output, options) => ({ type: 'solver.completed', ...replyBase(request), turn: request.turn, text: output.content, ...answerFields(extractAnswer(output.content), output, options.proof), call: callInfo(output) }),
});

/**
 * Whether a critic agrees: its last `Decision: agree|disagree`, or MAS-TTS's
 * own `[Agree]`/`[Disagree]` token (so a critic prompted with the paper's
 * template is read too); anything else is disagreement. Markdown around the
 * label or the word (`**Decision:** Agree`, `Decision: **agree**`) is read as
 * the line it is, as every other role's labels are.
 */
export function parseAgreement(text: string): boolean {
  const last = [...text.matchAll(/decision\W*:[\s*_]*(agree|disagree)|\[(agree|disagree)\]/gi)].at(-1);
  return (last?.[1] ?? last?.[2])?.toLowerCase() === 'agree';
}

/** Why a critic's reply has no decision (it then casts no vote), or null when it states one: none, or it was cut (after its budget forcing) before it finished. */
export function missingDecision(output: { content: string; finishReason: string }): string | null {
  const cut = cutOff(output);
  if (cut !== null) return `the critique was ${cut} before its decision`;
  return /decision\W*:[\s*_]*(agree|disagree)/i.test(output.content) ? null : 'no "Decision: agree" or "Decision: disagree" line';
}

/** The Critic agent's definition. */
export const criticRole = templateRole('critic', {
  kind: 'grade',
  endpoint: 'verification',
  // Unique within a round as long as there are fewer than 100 critics.
  index: (request) => request.turn * 100 + request.critic,
  subject: (index) => ({ candidate: 0, pass: index, label: `critic ${index % 100} on turn ${Math.floor(index / 100)}` }),
  maxTokens: (request) => request.budget,
  budgetForcing: true,
  /** The Critic agent's user message: the problem and the solver's solution. */
  template: {
    source: `${PROBLEM_BLOCK}

${SOLUTION_BLOCK}

Solve the problem yourself from your expertise, then compare your final answer with the final answer of the solution above (its \\boxed{}). \
Write only your critique of that solution, not your own solution or answer. \
End with "Decision: agree" if your final answer is the same as the solution's final answer, else "Decision: disagree".`,
    variables: COMMON_VARIABLES,
    system: (request) => roleLine('Critic', `You are ${request.expert}`),
    values: quotedSolutionValues,
  },
  reply: (request, output) => ({ type: 'critic.completed', ...replyBase(request), turn: request.turn, critic: request.critic, agree: parseAgreement(statedText(output)), critique: output.content, ...unusableIf(missingDecision(output)), call: callInfo(output) }),
});

/** The evaluator's verdict: `Correctness: 0|1` (null when absent, with `parseError` saying so) and the `Advice:` text. */
export function parseEvaluation(text: string): { correct: boolean | null; advice: string; parseError?: string } {
  const verdict = [...text.matchAll(/correctness\W*:[\s*_]*([01])\b/gi)].at(-1)?.[1];
  const advice = /advice\W*:[\s*_]*([\s\S]+)$/im.exec(text)?.[1]?.trim() ?? '';
  return { correct: verdict === undefined ? null : verdict === '1', advice, ...unusableIf(verdict === undefined ? 'no "Correctness: 0" or "Correctness: 1" line' : null) };
}

/** The Evaluator agent's definition. */
export const evaluatorRole = templateRole('evaluator', {
  kind: 'grade',
  endpoint: 'verification',
  index: () => 0,
  // It grades the round's one solution, candidate 0 (the RL export carries that candidate's grade with it).
  subject: () => ({ candidate: 0, label: 'evaluation' }),
  /** The Evaluator agent's user message: the problem and the team's solution. */
  template: {
    source: `${PROBLEM_BLOCK}

${SOLUTION_BLOCK}

Is the solution above correct? Answer "Correctness: 1" or "Correctness: 0" on one line, then "Advice: …" with what the team should do next.`,
    variables: COMMON_VARIABLES,
    system: () => roleLine('Evaluator', "You judge whether the team's solution is correct."),
    values: quotedSolutionValues,
  },
  reply: (request, output) => {
    // A cut evaluation states no verdict (the problem does not stop on it) and no advice for the next round's CEO.
    const evaluation = parseEvaluation(statedText(output));
    const cutBy = cutOff(output);
    const cut = cutBy === null ? {} : { parseError: `the evaluation was ${cutBy}` };
    return { type: 'evaluator.completed', ...replyBase(request), ...evaluation, ...cut, call: callInfo(output) };
  },
});

/** The CEO agent's actor definition. */
export const ceoMachine = createRoleMachine(ceoRole);
/** The Recruiter agent's actor definition. */
export const recruiterMachine = createRoleMachine(recruiterRole);
/** The Solver agent's actor definition. */
export const solverMachine = createRoleMachine(solverRole);
/** The Critic agent's actor definition. */
export const criticMachine = createRoleMachine(criticRole);
/** The Evaluator agent's actor definition. */
export const evaluatorMachine = createRoleMachine(evaluatorRole);
