/**
 * Dispatches a request to its role's responder and adds the optional
 * reasoning text. The reply is a pure function of (server seed, messages,
 * seed, temperature, model): it never depends on arrival order, time or faults.
 */
import type { SimProblem } from '../model/catalogue.ts';
import { CHARS_PER_TOKEN, filler } from '../model/filler.ts';
import { respondExperience } from '../responders/experience.responder.ts';
import { respondGuideline } from '../responders/guideline.responder.ts';
import { respondJudge } from '../responders/judge.responder.ts';
import { createRng, digestOf, rngOf } from '../model/random.ts';
import type { ChatRequest } from '../http/request.ts';
import { jitteredTokens, type Responder } from '../responders/responder.ts';
import { respondSolution } from '../responders/solution.responder.ts';
import { respondSynthesis } from '../responders/synthesis.responder.ts';
import { respondSummary } from '../responders/summary.responder.ts';
import { respondCritique, respondVerification } from '../responders/verification.responder.ts';
import { respondCeo, respondCritic, respondEvaluator, respondRecruiter } from '../strategies/mas-ceo.responder.ts';
import { respondRevision } from '../strategies/revision.responder.ts';
import { respondDistill, respondRollout } from '../strategies/rse.responder.ts';
import { respondProver, respondRater } from '../strategies/verify-refine.responder.ts';
import type { SimFormat } from '../../kernel/sim-formats.ts';
import type { AskedRole } from '../model/sim-roles.ts';

/** The responder of every reply format (a strategy maps its roles to formats). */
const RESPONDERS: Record<SimFormat, Responder> = {
  solution: respondSolution,
  verification: respondVerification,
  critique: respondCritique,
  summary: respondSummary,
  experience: respondExperience,
  guideline: respondGuideline,
  judge: respondJudge,
  revision: respondRevision,
  'rse-rollout': respondRollout,
  'rse-distill': respondDistill,
  ceo: respondCeo,
  recruiter: respondRecruiter,
  critic: respondCritic,
  evaluator: respondEvaluator,
  synthesis: respondSynthesis,
  'self-evaluated': respondProver,
  rating: respondRater,
};

/** What a reply is keyed by: everything that may shape it, and nothing else. */
export function replyKeyOf(seed: number, request: ChatRequest): string {
  const canonical = JSON.stringify([
    request.model,
    request.temperature,
    request.seed,
    request.messages.map((m) => [m.role, m.content]),
  ]);
  return digestOf(seed, canonical).toString('hex');
}

/** Settings a reply depends on. */
export interface ReplySettings {
  seed: number;
  outputTokens: number;
  verifierAccuracy: number;
  distillTokens: number;
  reasoning: boolean;
}

/** The reply to one request, before the completion limit. */
export function replyTo(
  /** The role the request names (its reasoning says so) and the format that answers it (sim-roles.ts). */
  asked: AskedRole,
  problem: SimProblem,
  rest: string,
  replyKey: string,
  settings: ReplySettings,
  /** The system message, for roles that carry material there (the `rse` rollouts' experience bank). */
  system = '',
): { content: string; reasoning: string | null } {
  const rng = createRng(Buffer.from(replyKey, 'hex'));
  const content = RESPONDERS[asked.format]({
    seed: settings.seed,
    problem,
    rest,
    system,
    rng,
    outputTokens: settings.outputTokens,
    verifierAccuracy: settings.verifierAccuracy,
    distillTokens: settings.distillTokens,
  });
  if (!settings.reasoning) return { content, reasoning: null };
  // A generator of its own, so turning reasoning on does not change the content.
  const thinking = rngOf(replyKey, 'reasoning');
  const lead = `Thinking as the ${asked.role} agent about problem ${problem.id}.\n`;
  const reasoning = lead + filler(jitteredTokens(settings.outputTokens / 2, thinking) * CHARS_PER_TOKEN - lead.length, thinking);
  return { content, reasoning };
}

/** About how many tokens a continuation writes: enough for a role's format with no padding. */
const CONTINUATION_TOKENS = 24;

/**
 * The reply to a request that continues its last message, a reply cut at its
 * budget and followed by a cue (budget forcing): a short reply in the role's
 * format, which carries its answer (the box, the decision, the verdict), and
 * no reasoning, since the thinking ended in the message it continues.
 */
export function continuationTo(asked: AskedRole, problem: SimProblem, rest: string, replyKey: string, settings: ReplySettings, system = ''): { content: string; reasoning: null } {
  const { content } = replyTo(asked, problem, rest, replyKey, { ...settings, outputTokens: CONTINUATION_TOKENS, reasoning: false }, system);
  return { content, reasoning: null };
}
