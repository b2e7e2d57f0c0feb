/**
 * The shape shared by every role actor: receive a request message, build the
 * prompt, start one `llm` call per request (see start-call.ts), parse the
 * completion and post the reply. A role's behaviour is entirely in its `RoleDefinition`, so swapping a
 * role means passing another definition (or another machine) to the strategy.
 *
 * One role actor serves every problem: it keeps no per-call state (each call's
 * output carries its request) and stops each finished call so that its
 * children stay as many as the calls in flight.
 */
import { TmasError } from '../src/kernel/errors.ts';
import { enqueueActions, setup } from 'xstate';
import { ENDPOINT_SLOTS, type EndpointSlot, type Message, type MessageType, type Usage } from '../src/kernel/protocol.ts';
import { llmNotProvided, type LlmFailure, type LlmInput, type LlmOutput, type LlmResult } from './llm.ts';
import { postNotProvided, type PostParams } from './post.ts';
import { callLlmNotProvided, failOnCallError, type CallDoneEvent, type CallErrorEvent, type CallLlmParams } from './start-call.ts';
import type { PromptSpec } from './prompt.ts';
import { addUsage, continuationText, forcedPrefix, forcedReply, FORCING_RETRIES, needsForcing } from './budget-forcing.ts';
import type { RoleTemplate } from './role-template.ts';
import { callInfo, unusableOf, withUnusableOf } from './reply.ts';

/** Settings every role sees. */
export interface RoleOptions {
  /** false with `--no-proof`: short answers in \boxed{}; true: proof problems. */
  proof: boolean;
  temperature?: number;
  /** Retries of a call whose output `validate` rejects (`--parse-retries`); default 2. */
  parseRetries?: number;
}

/** What one call is about: a candidate, and which of its calls of the role (verification 3, judge pass 1). */
export interface CallSubject {
  candidate: number;
  /** The call's number among the candidate's calls of its role; absent when the role makes one call per candidate. */
  pass?: number;
  /** How the call is named beside its candidate: `judge pass 1`, `verification 3`, `solution`. */
  label: string;
}

/** The subject of a role that makes one call per candidate and indexes it by the candidate. */
export function oneCallPerCandidate(role: string): (index: number) => CallSubject {
  return (index) => ({ candidate: index, label: role });
}

/** The subject of a role that indexes its calls `candidate × stride + pass`. */
export function passesPerCandidate(stride: number, label: (pass: number) => string): (index: number) => CallSubject {
  return (index) => {
    const pass = index % stride;
    return { candidate: Math.floor(index / stride), pass, label: label(pass) };
  };
}

/** Retries after unusable output when the run does not say. */
export const DEFAULT_PARSE_RETRIES = 2;

/**
 * What a role's generations are, whatever the strategy: `solution` writes a
 * solution of the problem, `grade` verifies, rates or judges one, `memory`
 * condenses what was tried into what later prompts read (summaries, banks),
 * `plan` decides what the next calls do. The RL export labels its records by
 * it (src/cli/inspect/rl-records.ts, docs/reference/rl-labels.md).
 */
export type GenerationKind = 'solution' | 'grade' | 'memory' | 'plan';

/** Everything that makes one role what it is. */
export interface RoleDefinition<T extends MessageType = MessageType> {
  /** The role's name: it receives `<role>.requested` messages at the address `role:<role>`. */
  role: string;
  /** What its generations are (every built-in role declares it; the contract suite checks). A plugin's definition replaces a role, not what the role is: the export reads the built-in strategy's. */
  kind?: GenerationKind;
  /** The endpoint its calls go to; the role's own name when that is a slot, else `solution`. */
  endpoint?: EndpointSlot;
  /** The request message type this role answers. */
  request: T;
  /** Tells the calls of one iteration apart: candidate, or candidate × M + verification. */
  index(request: Extract<Message, { type: T }>): number;
  /**
   * The inverse of `index`: which candidate a call of this role is about and
   * which of that candidate's calls it is (what the viewer's transcripts are
   * made of). Absent: the call is about the problem, not one candidate
   * (experience, guideline, a CEO's plan). Pure.
   */
  subject?(index: number): CallSubject;
  /** The completion limit of a request's call (MAS-TTS: the CEO's token budget); absent: the run's. Pure. */
  maxTokens?(request: Extract<Message, { type: T }>): number;
  /**
   * A reply that reaches its `maxTokens` budget less 200 tokens is continued
   * after an end-of-thinking or final-answer cue, and the reply is the
   * concatenation (MAS-TTS's budget forcing: machines/budget-forcing.ts).
   */
  budgetForcing?: true;
  /** Builds the prompt. Pure. */
  prompt(request: Extract<Message, { type: T }>, options: RoleOptions): PromptSpec;
  /**
   * The user message as a template, when `prompt` is `templatePrompt(template)`:
   * what `tmas prompts` prints and what `--prompt ROLE=FILE` replaces.
   */
  template?: RoleTemplate<Extract<Message, { type: T }>, RoleOptions>;
  /** Turns a completion into the reply message. Pure. */
  reply(request: Extract<Message, { type: T }>, output: LlmOutput, options: RoleOptions): Message;
  /**
   * What makes a completion unusable (no parseable score, JSON not of the
   * schema, …), or null when it is fine. An unusable output is asked again up
   * to `parseRetries` times, then replied with the problem recorded. Pure.
   */
  validate?(request: Extract<Message, { type: T }>, output: LlmOutput, options: RoleOptions): string | null;
  /** The role grades candidates (the judge): the loop does not depend on it, so its failed calls do not stop the problem. */
  grading?: true;
}

type RoleEvent = Message | CallDoneEvent | CallErrorEvent;

function baseOf(request: Message) {
  return { run: request.run, problem: request.problem, iteration: request.iteration, correlation: request.correlation };
}

function trimmedMessage(role: string, request: Message, output: LlmOutput, index: number): Message {
  const contextErrors = output.contextErrors ? { contextErrors: output.contextErrors } : {};
  return { type: 'context.trimmed', ...baseOf(request), role, index, dropped: output.dropped, promptTokens: output.promptTokens, budget: output.budget, ...contextErrors };
}

function invalidMessage(role: string, request: Message, output: LlmOutput, index: number, reason: string, retrying: boolean): Message {
  const attempt = output.attempt ?? 0;
  // One message per attempt: the correlation names the attempt, so a log folded by (type, correlation) counts each.
  return { type: 'output.invalid', ...baseOf(request), correlation: `${request.correlation}#${attempt}`, role, index, attempt, reason, finishReason: output.finishReason, empty: output.content.trim() === '', retrying, call: callInfo(output) };
}

/** The note appended to a retried prompt, so the model hears what was wrong (and the request differs from the first). */
function retryNote(reason: string): PromptSpec['parts'][number] {
  return { id: 'retry-note', text: `Note: a previous answer to this request could not be used (${reason}). Follow the requested output format exactly.` };
}

function failedMessage(role: string, request: Message, failure: LlmFailure, index: number): Message {
  return { type: 'llm.failed', ...baseOf(request), role, index, code: failure.code, error: failure.error };
}

/** The endpoint slot a role's calls go to. */
export function endpointSlotOf(definition: Pick<RoleDefinition, 'role' | 'endpoint'>): EndpointSlot {
  if (definition.endpoint) return definition.endpoint;
  return (ENDPOINT_SLOTS as readonly string[]).includes(definition.role) ? (definition.role as EndpointSlot) : 'solution';
}

/** A forcing role's request until its reply: the prompt it was asked, and once cut, the cut reply and what its continuations cost. */
interface Forcing {
  prompt: PromptSpec;
  cut: LlmOutput | null;
  /** Continuations that came back empty so far. */
  retry: number;
  spent: Usage;
}

/** A role actor's context: its options, and a forcing role's requests in progress, by correlation. */
interface RoleContext extends RoleOptions {
  forcing: Record<string, Forcing>;
}

/** What a role does on an event: the messages it posts, the calls it starts, and its forcing state when that changes. */
interface RoleStep {
  post: Message[];
  calls: CallLlmParams[];
  forcing?: Record<string, Forcing>;
}

/** The forcing state less a request's entry; undefined (no change, nothing to assign) when it has none, as no request of a role without budget forcing has. */
function without(forcing: Record<string, Forcing>, correlation: string): Record<string, Forcing> | undefined {
  if (!Object.hasOwn(forcing, correlation)) return undefined;
  const { [correlation]: _, ...others } = forcing;
  return others;
}

/** A step's forcing field: present only when the state changed (each assign makes the role's context anew). */
function forced(forcing: Record<string, Forcing> | undefined): Pick<RoleStep, 'forcing'> {
  return forcing === undefined ? {} : { forcing };
}

/** The calls a role makes for a request and what it does with their results, as steps (pure). */
function roleSteps<T extends MessageType>(definition: RoleDefinition<T>) {
  type Request = Extract<Message, { type: T }>;
  const budgetOf = (request: Request): number | null => (definition.budgetForcing && definition.maxTokens ? definition.maxTokens(request) : null);
  // The call of a request with its prompt; a retry after unusable output carries its attempt number.
  function callInput(request: Request, context: RoleOptions, attempt: number, prompt: PromptSpec): LlmInput {
    return {
      role: definition.role,
      endpoint: endpointSlotOf(definition),
      problem: request.problem,
      iteration: request.iteration,
      index: definition.index(request),
      prompt,
      ...(context.temperature === undefined ? {} : { temperature: context.temperature }),
      ...(definition.maxTokens === undefined ? {} : { maxTokens: definition.maxTokens(request) }),
      request,
      ...(attempt === 0 ? {} : { attempt }),
      ...(definition.grading ? { grading: true } : {}),
      ...(definition.kind === 'memory' ? { condenses: true } : {}),
    };
  }
  // A retry after unusable output has a note on what was wrong.
  function ask(context: RoleContext, request: Request, attempt: number, note: string | null): RoleStep {
    const prompt = definition.prompt(request, context);
    const input = callInput(request, context, attempt, note === null ? prompt : { ...prompt, parts: [...prompt.parts, retryNote(note)] });
    const calls = [{ id: attempt === 0 ? request.correlation : `${request.correlation}#${attempt}`, input }];
    if (budgetOf(request) === null) return { post: [], calls };
    return { post: [], calls, forcing: { ...context.forcing, [request.correlation]: { prompt: input.prompt, cut: null, retry: 0, spent: { promptTokens: 0, completionTokens: 0 } } } };
  }
  // The continuation of a cut reply: its own journaled call (`<role>#forced`, so its own seed; a retry another), within half the budget.
  function continueCut(context: RoleContext, request: Request, forcing: Forcing & { cut: LlmOutput }, budget: number): RoleStep {
    const input: LlmInput = {
      ...callInput(request, context, forcing.retry, forcing.prompt),
      role: `${definition.role}#forced`,
      prefix: forcedPrefix(forcing.cut, forcing.retry).text,
      maxTokens: Math.floor(budget / 2),
    };
    return { post: [], calls: [{ id: `${request.correlation}#forced${forcing.retry}`, input }], forcing: { ...context.forcing, [request.correlation]: forcing } };
  }
  // A reply to post, or a retry when `validate` rejects it.
  function settle(context: RoleContext, request: Request, output: LlmOutput): RoleStep {
    const index = definition.index(request);
    const post: Message[] = output.dropped.length > 0 || (output.contextErrors ?? 0) > 0 ? [trimmedMessage(definition.role, request, output, index)] : [];
    const problem = unusableOf(definition.validate?.(request, output, context) ?? null, output);
    const attempt = output.attempt ?? 0;
    if (problem !== null) {
      const retrying = attempt < (context.parseRetries ?? DEFAULT_PARSE_RETRIES);
      post.push(invalidMessage(definition.role, request, output, index, problem, retrying));
      if (retrying) {
        const next = ask(context, request, attempt + 1, problem);
        return { ...next, post: [...post, ...next.post] };
      }
    }
    post.push(withUnusableOf(definition.reply(request, output, context), output));
    return { post, calls: [], ...forced(without(context.forcing, request.correlation)) };
  }
  function done(context: RoleContext, result: LlmResult): RoleStep {
    const request = result.request as Request;
    const forcing = context.forcing[request.correlation];
    const budget = budgetOf(request);
    if (!result.ok) {
      // No room left in the window for a continuation: the cut reply stands, as it came.
      if (forcing?.cut && result.code === 'TMAS_CONTEXT_LENGTH') return settle(context, request, forcing.cut);
      return { post: [failedMessage(definition.role, request, result, definition.index(request))], calls: [], ...forced(without(context.forcing, request.correlation)) };
    }
    if (forcing === undefined || budget === null) return settle(context, request, result);
    if (forcing.cut === null) return needsForcing(result, budget) ? continueCut(context, request, { ...forcing, cut: result }, budget) : settle(context, request, result);
    const spent = addUsage(forcing.spent, result.usage);
    if (continuationText(result).trim() === '' && forcing.retry < FORCING_RETRIES) return continueCut(context, request, { ...forcing, cut: forcing.cut, retry: forcing.retry + 1, spent }, budget);
    return settle(context, request, forcedReply(forcing.cut, forcedPrefix(forcing.cut, forcing.retry), result, spent, forcing.retry + 1));
  }
  return { ask, done };
}

/** Builds the actor definition of a role from its `RoleDefinition`. */
export function createRoleMachine<T extends MessageType>(definition: RoleDefinition<T>) {
  type Request = Extract<Message, { type: T }>;
  const steps = roleSteps(definition);
  return setup({
    types: {
      context: {} as RoleContext,
      input: {} as RoleOptions,
      events: {} as RoleEvent,
    },
    actors: { llm: llmNotProvided },
    actions: { post: postNotProvided as (_: unknown, params: PostParams) => void, callLlm: callLlmNotProvided },
  }).createMachine({
    id: definition.role,
    context: ({ input }) => ({ ...input, forcing: {} }),
    on: {
      'llm.error': failOnCallError,
      'llm.done': {
        actions: enqueueActions(({ context, event, enqueue }) => {
          const step = steps.done(context, event.output);
          if (step.forcing !== undefined) enqueue.assign({ forcing: step.forcing });
          for (const message of step.post) enqueue({ type: 'post', params: { message } });
          for (const call of step.calls) enqueue({ type: 'callLlm', params: call });
        }),
      },
      // Requests: every other event a role receives. A message of another type is a routing bug.
      '*': {
        actions: enqueueActions(({ context, event, enqueue }) => {
          if (event.type !== definition.request) {
            throw new TmasError('TMAS_MISROUTED', `the ${definition.role} role received ${event.type}`);
          }
          const step = steps.ask(context, event as Request, 0, null);
          if (step.forcing !== undefined) enqueue.assign({ forcing: step.forcing });
          for (const call of step.calls) enqueue({ type: 'callLlm', params: call });
        }),
      },
    },
  });
}
