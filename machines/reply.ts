/**
 * Small pure helpers the role definitions share when they turn a completion
 * into a reply message.
 */
import type { CallInfo, Message } from '../src/kernel/protocol.ts';
import type { LlmOutput } from './llm.ts';
import { lastJsonObjectIn } from './reply-json.ts';
import { NO_FINAL_ANSWER } from '../src/kernel/answerless-reason.ts';

/** The fields every reply copies from its request. */
export function replyBase(request: Message) {
  return { run: request.run, problem: request.problem, iteration: request.iteration, correlation: request.correlation };
}

/** What a reply says about its call. */
export function callInfo(output: LlmOutput): CallInfo {
  const empty = output.content.trim() === '' ? { empty: true as const } : {};
  return { key: output.key, usage: output.usage, finishReason: output.finishReason, ...(output.calls === undefined ? {} : { calls: output.calls }), ...empty };
}

/**
 * The last `SCORE: x` in a text, in [0, 1]; null when there is none, or when
 * it is out of that scale with nothing saying which. Accepts markdown
 * emphasis around the label, a percentage, and a score given on a scale it
 * names (`SCORE: 7/10`, `SCORE: 7 out of 10`: 0.7). A reasoning model asked
 * for [0, 1] writes a grade out of 10 often enough: clamped, `SCORE: 3/10`
 * (an error found) was read as 1, fully correct, and a bare `SCORE: 7` as 1
 * too; a bare score out of [0, 1] says no scale, so it is no score.
 */
export function parseScore(text: string): number | null {
  // The scale is read on the score's own line only: a next line opening "Out of 3 cases, …" names none.
  const matches = [...text.matchAll(/score\**\s*[:=]\s*\**\s*(-?\d+(?:\.\d+)?|\.\d+)[ \t]*(?:(%)|\/[ \t]*(\d+(?:\.\d+)?)|out[ \t]+of[ \t]+(\d+(?:\.\d+)?))?/gi)];
  const last = matches.at(-1);
  if (!last?.[1]) return null;
  const scale = last[2] === '%' ? 100 : Number(last[3] ?? last[4] ?? 1);
  const value = Number(last[1]) / scale;
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;
}

/** `text` parsed as JSON, or undefined when it is not JSON. */
function wholeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The JSON object of a reply: the last ```json fenced block, else the last
 * object written in its prose (reply-json.ts: text and LaTeX braces around it
 * are not part of it). Inside a fence, too, the object is read alone: a
 * reasoning model closes its JSON and goes on within the fence with a
 * comment (`// the records above replace the previous ones`), and the whole
 * fence, parsed as JSON, made a complete bank update unusable. Throws a
 * SyntaxError saying what was wrong: when no object parses, the error of the
 * fence, or of the span from the first `{` to the last `}`.
 */
export function parseJsonReply(text: string): unknown {
  const fenced = [...text.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)].at(-1)?.[1];
  // A fence that is JSON whole (an array among them) is that value; one with more than JSON is its object.
  const whole = fenced === undefined ? undefined : wholeJson(fenced);
  if (whole !== undefined) return whole;
  // A fence that opens a list holds no object of the reply's: its last item is not the whole update, the others dropped.
  const found = fenced?.trimStart().startsWith('[') ? undefined : lastJsonObjectIn(fenced ?? text);
  if (found !== undefined) return found;
  const candidate = fenced ?? text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  if (!candidate.trim()) throw new SyntaxError('no JSON object in the reply');
  return JSON.parse(candidate);
}

/**
 * How a reply was cut before its end, or null when it ended on its own: at
 * the length limit, or by a hosted API's content filter (OpenAI's and
 * Azure's `finish_reason: "content_filter"`), whose text so far is a piece of
 * a reply as a cut one is: what it boxed is no final answer.
 */
export function cutOff(output: { finishReason: string }): string | null {
  if (output.finishReason === 'length') return 'cut off at the length limit';
  return output.finishReason === 'content_filter' ? "stopped by the provider's content filter" : null;
}

/**
 * The text a role reads what a reply states from (a verdict, a score, a
 * decision, a plan, a team, records, a summary): the reply's own, or none when
 * it was cut before its end (`cutOff`: at its completion limit, or by a
 * content filter). A cut reply had not finished, and what it stated on its way may be a provisional line it went on to revise (a
 * reasoning model writes "VERDICT: equivalent" and then checks again), so
 * every role of every method reads nothing from it, as a cut solution has no
 * final answer (`answerFields`): read by some roles and not by others, a model
 * that fills its window would move the table by method, not by merit.
 */
export function statedText(output: Pick<LlmOutput, 'content' | 'finishReason'>): string {
  return cutOff(output) === null ? output.content : '';
}

/**
 * Why a reply with no answer text is unusable, or null when it has some: the
 * answer was empty, and, when the reasoning held text, how much: a model
 * that wrote its answer only in its reasoning, or a reasoning parser that
 * took the whole reply for reasoning, is told apart from a model that wrote
 * nothing (no role takes an answer, a verdict or a score from the reasoning).
 */
export function emptyReply(output: Pick<LlmOutput, 'content' | 'reasoning' | 'finishReason'>): string | null {
  if (output.content.trim() !== '') return null;
  const reasoning = output.reasoning?.trim() ?? '';
  const held = reasoning === '' ? '' : `; its reasoning held ${reasoning.length} characters, where no role looks for an answer`;
  return `the answer was empty (finish_reason ${output.finishReason})${held}`;
}

/**
 * Why an output its role could not use was unusable, as every role says it
 * (the role machine asks this of each, a plugin's role included): the role's
 * own reason, or emptyReply's when the reply had no answer text. Before, a
 * role that names what it looked for ('no "VERDICT: …" line', 'no
 * "Decision:" line') said so of an empty reply too, and nothing told a reply
 * whose whole text was its reasoning from one that was not of the format.
 */
export function unusableOf(reason: string | null, output: Pick<LlmOutput, 'content' | 'reasoning' | 'finishReason'>): string | null {
  return reason === null ? null : (emptyReply(output) ?? reason);
}

/** A role's reply message, its `parseError` (when it has one) as unusableOf says it. */
export function withUnusableOf(message: Message, output: Pick<LlmOutput, 'content' | 'reasoning' | 'finishReason'>): Message {
  if (!('parseError' in message) || typeof message.parseError !== 'string') return message;
  return { ...message, parseError: unusableOf(message.parseError, output) } as Message;
}

/** A role's `validate` verdict with what the endpoint did wrong: an empty answer, or one cut off. */
export function unusableBecause(problem: string | null, output: LlmOutput): string | null {
  if (problem === null) return null;
  const empty = emptyReply(output);
  if (empty !== null) return empty;
  const cut = cutOff(output);
  return cut === null ? problem : `${problem}; the answer was ${cut}`;
}

/** `{ parseError }` when a reply was unusable, else nothing: the field is absent from usable replies (see the protocol), so usable replies keep their shape. */
export function unusableIf(parseError: string | null): { parseError?: string } {
  return parseError === null ? {} : { parseError };
}

/**
 * Why a solution-writing role's output is unusable, or null: with short
 * answers, one from which no final answer was read (none boxed or stated,
 * or the box lost to a cut); for a proof, an empty or cut-off text.
 */
export function solutionUnusable(answer: string | null, output: LlmOutput, proof: boolean): string | null {
  const empty = emptyReply(output);
  if (empty !== null) return empty;
  const cut = cutOff(output);
  if (proof) return cut === null ? null : `the proof was ${cut}`;
  if (answer !== null) return null;
  return cut === null ? `${NO_FINAL_ANSWER}: none in \\boxed{} or stated` : `${NO_FINAL_ANSWER}: the answer was ${cut}`;
}

/**
 * A solution-writing role's `answer`, with `parseError` when the output is
 * unusable (see `solutionUnusable`). A text cut off (cutOff) has no
 * final answer, even if a \boxed{} made it into its first part (a guess the
 * cut text may have gone on to change), in every method alike: counted as an
 * answer by some methods and not by others, the cut replies of a model that
 * fills its window would move the table by method, not by merit.
 */
export function answerFields(answer: string | null, output: LlmOutput, proof: boolean): { answer: string | null; parseError?: string } {
  const final = cutOff(output) === null ? answer : null;
  return { answer: final, ...unusableIf(solutionUnusable(final, output, proof)) };
}
