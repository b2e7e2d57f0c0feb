/**
 * MAS-TTS with its adaptive CEO: one round per iteration. A round is
 *   CEO plan → recruiter (n experts) → solver (expert 1) → n − 1 critics,
 *   a solver revision after each critique round where one disagrees, up to
 *   MAX_INNER_TURNS critique rounds (the revision after the last one is not
 *   critiqued, as MAS-TTS's vertical-solver-first decision maker runs it),
 *   → evaluator (correctness 0/1 and advice).
 * The problem stops when the evaluator says correct or after --max-iterations
 * rounds. A critic agrees when its own final answer is the solution's, and the
 * CEO's budget is the completion limit of the round's solver and critic calls,
 * both as MAS-TTS does (see mas-ceo.roles.ts). The CEO's continue/stop
 * decision is recorded in its reply but does
 * not end the loop: MAS-TTS parses it (agentverse/output_parser/output_parser.py,
 * CEOParser) and its environment never reads it (environments/tasksolving_env/
 * basic.py: `is_done` is turns ≥ max_turn or the evaluator's success), while
 * the paper describes a CEO that can terminate. A critic whose call fails or
 * whose reply states no decision casts no vote: the turn goes by the votes
 * cast (MAS-TTS counts a failed critic as agreeing and an undecided one as
 * objecting, which hides both). A stopped problem keeps its last solution for
 * the remaining iterations (announced without any call), so every problem has
 * a result at every iteration and the per-iteration metrics compare with the
 * other strategies.
 */
import type { Message } from '../../../src/kernel/protocol.ts';
import type { ProblemInput } from '../../contract.ts';
import { nextIteration, waiting, type ProblemProgram, type Step } from '../../program.ts';
import { failureOf, messageBase, NO_RESPONSE, responseOf, saveOf, type CandidateResponse, type CandidateView } from '../../kit.ts';
import { CEO_LIMITS, parseExperts } from './mas-ceo.roles.ts';

/** Critique rounds per round at most: each may be followed by a revision, so a round has up to one solver turn more (MAS-TTS's `max_inner_turns`). */
export const MAX_INNER_TURNS = 3;

interface Plan {
  experts: number;
  direction: string;
  budget: number;
}

/** A critic's vote: agreement, an objection with its critique, or `agree: null`, a missing vote (its call failed or its reply stated no decision). */
interface Vote {
  agree: boolean | null;
  critique: string;
}

interface CeoState {
  round: number;
  plan: Plan;
  experts: string[];
  turn: number;
  /** The solution of this round so far (null before the solver answers or when it failed). */
  solution: (CandidateResponse & { text: string }) | null;
  /** This turn's critic votes by critic number (1 … n − 1); null while pending. */
  critics: Array<Vote | null>;
  failures: string[];
  /** The result announced for the latest round; carried forward once stopped. */
  result: CandidateView | null;
  advice: string | null;
  stopped: boolean;
}

function ask(input: ProblemInput, state: CeoState): Message {
  return { type: 'ceo.requested', ...messageBase(input, state.round, 'ceo', 0), question: input.problem.question, solution: state.result?.text ?? null, advice: state.advice };
}

function solve(input: ProblemInput, state: CeoState, previous: string | null, critiques: string[]): Message {
  return {
    type: 'solver.requested',
    ...messageBase(input, state.round, 'solver', state.turn),
    turn: state.turn,
    question: input.problem.question,
    expert: state.experts[0] ?? 'a careful mathematician',
    direction: state.plan.direction,
    budget: state.plan.budget,
    previous,
    critiques,
  };
}

function evaluate(input: ProblemInput, state: CeoState): Step<CeoState> {
  if (state.solution === null) return finishRound(input, state, null, '');
  return waiting(state, [{ type: 'evaluator.requested', ...messageBase(input, state.round, 'evaluator', 0), question: input.problem.question, solution: state.solution.text }]);
}

/** After the solver's draft or revision: ask the critics, or go to the evaluator when there are none or the critique rounds are spent. */
function critique(input: ProblemInput, state: CeoState): Step<CeoState> {
  const count = state.experts.length - 1;
  if (count <= 0 || state.solution === null || state.turn >= MAX_INNER_TURNS) return evaluate(input, state);
  const solution = state.solution.text;
  const post = Array.from({ length: count }, (_, i): Message => ({
    type: 'critic.requested',
    ...messageBase(input, state.round, 'critic', `${state.turn}.${i + 1}`),
    turn: state.turn,
    critic: i + 1,
    question: input.problem.question,
    expert: state.experts[i + 1] ?? '',
    solution,
    budget: state.plan.budget,
  }));
  return waiting({ ...state, critics: Array.from({ length: count }, () => null) }, post);
}

function settleCritic(input: ProblemInput, state: CeoState, critic: number, vote: Vote, failure: string | null): Step<CeoState> {
  const critics = state.critics.map((c, i) => (i === critic - 1 ? vote : c));
  const next = { ...state, critics, failures: failure ? [...state.failures, failure] : state.failures };
  if (critics.some((c) => c === null)) return waiting(next);
  // Only the votes cast count: a missing vote is neither agreement nor an objection (it has no critique to revise by).
  const objections = critics.filter((c) => c?.agree === false).map((c) => c?.critique ?? '');
  if (objections.length === 0) return evaluate(input, next);
  const revised = { ...next, turn: next.turn + 1 };
  return waiting(revised, [solve(input, revised, next.solution?.text ?? null, objections)]);
}

function finishRound(input: ProblemInput, state: CeoState, correct: boolean | null, advice: string): Step<CeoState> {
  const result: CandidateView = {
    candidate: 0,
    ...(state.solution ?? NO_RESPONSE),
    score: correct === null ? null : correct ? 1 : 0,
    summary: advice,
    failures: state.failures,
  };
  const next = { ...state, result, advice, stopped: correct === true };
  return { state: next, post: [], effect: saveOf(state.round, [result], input) };
}

function fresh(round: number, result: CeoState['result'], advice: string | null): CeoState {
  const plan = { experts: CEO_LIMITS.experts.default, direction: '', budget: CEO_LIMITS.budget.default };
  return { round, plan, experts: [], turn: 0, solution: null, critics: [], failures: [], result, advice, stopped: false };
}

/** The MAS-TTS CEO program. */
export const masCeoProgram: ProblemProgram<CeoState> = {
  id: 'mas-ceo',
  start(input) {
    const state = fresh(0, null, null);
    return waiting(state, [ask(input, state)]);
  },
  receive(state, message, input) {
    switch (message.type) {
      case 'ceo.completed': {
        // A "stop" goes no further than MAS-TTS takes it: the round goes ahead (see above).
        const plan = { experts: message.experts, direction: message.direction, budget: message.budget };
        const post: Message[] = [{ type: 'recruiter.requested', ...messageBase(input, state.round, 'recruiter', 0), question: input.problem.question, experts: plan.experts, direction: plan.direction }];
        return waiting({ ...state, plan }, post);
      }
      case 'recruiter.completed': {
        const next = { ...state, experts: message.experts };
        return waiting(next, [solve(input, next, null, [])]);
      }
      case 'solver.completed':
        return critique(input, { ...state, solution: responseOf(message) });
      case 'critic.completed':
        if (message.turn !== state.turn) return waiting(state);
        // A reply that states no decision is a missing vote, as a failed call is.
        return settleCritic(input, state, message.critic, { agree: message.parseError === undefined ? message.agree : null, critique: message.critique }, null);
      case 'evaluator.completed':
        return finishRound(input, state, message.correct, message.advice);
      case 'llm.failed': {
        const failures = [...state.failures, failureOf(message)];
        const next = { ...state, failures };
        switch (message.role) {
          case 'ceo':
            // No plan: the round goes ahead with the defaults.
            return waiting(next, [{ type: 'recruiter.requested', ...messageBase(input, state.round, 'recruiter', 0), question: input.problem.question, experts: state.plan.experts, direction: '' }]);
          case 'recruiter': {
            const recruited = { ...next, experts: parseExperts('', state.plan.experts) };
            return waiting(recruited, [solve(input, recruited, null, [])]);
          }
          case 'solver':
            // A failed revision keeps the draft; a failed first draft leaves the round without a solution.
            return evaluate(input, next);
          case 'critic':
            // A critic that cannot answer casts no vote; the failure is recorded.
            return settleCritic(input, state, message.index % 100, { agree: null, critique: '' }, failureOf(message));
          case 'evaluator':
            return finishRound(input, next, null, '');
          default:
            return waiting(state);
        }
      }
      default:
        return waiting(state);
    }
  },
  saved(state, input) {
    return nextIteration(state, state.round, input, (round) => {
      if (state.stopped) {
        const result = state.result ?? { candidate: 0, ...NO_RESPONSE };
        return { state: { ...state, round }, post: [], effect: saveOf(round, [result], input) };
      }
      const next = fresh(round, state.result, state.advice);
      return waiting(next, [ask(input, next)]);
    });
  },
};
