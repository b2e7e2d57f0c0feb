/**
 * The body of the reply to an accepted chat call: the role's answer
 * (respond.ts; a short one in its format when the call continues a cut
 * reply), out of its format when the format-breaking mode says so
 * (format-breaks.ts), damaged by a `length` or `empty` fault, and under the
 * capacity model the drawn number of output tokens, which the reply reports
 * and pays for. The text never depends on the fault's timing, the attempt or
 * the time.
 */
import type { ChatCall } from './chat-call.ts';
import type { ChatContext } from './chat-context.ts';
import { finish, toResponseBody } from '../http/completion.ts';
import { outputLengthOf } from '../capacity/output-length.ts';
import { cutAtLimit, damage } from '../faults/fault-replies.ts';
import type { FaultKind } from '../faults/faults.ts';
import { filler } from '../model/filler.ts';
import { breakFormat } from '../faults/format-breaks.ts';
import { rngOf } from '../model/random.ts';
import { continuationTo, replyKeyOf, replyTo } from './respond.ts';

/** A reply's body, as the OpenAI client receives it. */
export type ReplyBody = ReturnType<typeof toResponseBody>;

/** What the reply depends on besides the call: its fault, its body's sha256 and its prompt's tokens. */
export interface ReplyOf {
  fault: FaultKind | null;
  key: string;
  promptTokens: number;
}

/** The reply to `call`, and the output tokens it reports under the capacity model (0 without it). */
export function buildReply(call: ChatCall, context: ChatContext, { fault, key, promptTokens }: ReplyOf): { body: ReplyBody; outputTokens: number } {
  const { request, asked, problem, rest, system } = call;
  const { capacity, settings } = context;
  const replyKey = replyKeyOf(settings.seed, request);
  const reply = (request.continues ? continuationTo : replyTo)(asked, problem, rest, replyKey, settings, system);
  // The format-breaking mode, keyed by the request like the reply itself; a reply it cuts off runs on to the limit and is cut there.
  const broken = breakFormat(asked.format, reply.content, replyKey, context.breakFormats);
  if (broken.broken !== null) context.stats.formatBreaks[broken.broken] = (context.stats.formatBreaks[broken.broken] ?? 0) + 1;
  const limited = finish(broken.content, reply.reasoning, request.maxTokens);
  const limit = { maxTokens: request.maxTokens, rng: rngOf(replyKey, 'run-on') };
  let finished = damage(broken.truncated ? cutAtLimit(limited, limited.content, limit) : limited, fault, limit);
  // Under the capacity model the text stays the same; the tokens it reports (and pays for) are drawn.
  const outputTokens =
    capacity === null
      ? 0
      : outputLengthOf(
          replyKey,
          { median: capacity.settings.outputTokensMedian, p99: capacity.settings.outputTokensP99, problemSpread: capacity.settings.outputTokensProblemSpread, problem: problem.id },
          request.maxTokens,
        );
  if (capacity !== null && fault !== 'empty' && fault !== 'length' && !broken.truncated) {
    // A thinking model's text grows with its tokens: padded reasoning, when asked, so that counting the text counts the decoding.
    const padding = Math.round(outputTokens * capacity.settings.textCharsPerToken) - finished.content.length - (finished.reasoning?.length ?? 0);
    const reasoning = padding > 0 ? `${finished.reasoning ?? ''}${filler(padding, rngOf(settings.seed, 'thinking', key, 0))}` : finished.reasoning;
    finished = { ...finished, reasoning, completionTokens: outputTokens };
  }
  const body = toResponseBody(
    { id: `chatcmpl-sim-${key.slice(0, 24)}`, created: context.created, model: request.model, promptTokens },
    finished,
    context.reasoningDialect,
  );
  return { body, outputTokens };
}
