/**
 * A server of the tests' own that answers like a real reasoning model, not
 * like our simulator: an OpenAI-compatible node:http server on loopback in
 * front of a simulator (which knows each problem's answer and each role's
 * format) that rewrites every reply the ways a reasoning model writes it. A
 * `<think>` block before the reply (unclosed when `max_tokens` cut it), or the
 * reasoning in `reasoning_content`; the answer in prose around it ("So the
 * answer is 12." without a box, a box mid-text followed by a check, an answer
 * revised at the end); a verdict or score in words or in another scale, or
 * none; JSON in a code fence with a trailing comment, or prose; an empty
 * reply. The share of each kind is a setting; which reply gets which kind is
 * drawn from the request and the seed, so a run is the same every time. Every
 * reply it sends is logged with its role, kind and usage.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listening } from '../fixtures.ts';

/** The ways a reply can come back; each applies to the roles it means something for. */
export const REASONING_KINDS = [
  'think',
  'unclosed-think',
  'reasoning-content',
  'prose-answer',
  'box-then-check',
  'revised-answer',
  'verdict-in-words',
  'other-scale',
  'no-verdict',
  'fenced-json-comment',
  'prose-records',
  'empty',
] as const;
export type ReasoningKind = (typeof REASONING_KINDS)[number];

/** The share of replies of each kind (drawn in turn; what is left is sent as the simulator wrote it). */
export type KindShares = Partial<Record<ReasoningKind, number>>;

/** One reply the server sent. */
export interface SentReply {
  role: string;
  kind: ReasoningKind | 'intact';
  finishReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
  content: string;
  reasoning: string | null;
  maxTokens: number;
}

const SOLUTION_ROLES = new Set(['solution', 'rewrite', 'rollout', 'synthesis', 'solver', 'refine', 'prover']);
const SCORED_ROLES = new Set(['verification', 'critique', 'rater', 'judge', 'critic', 'evaluator']);
const JSON_ROLES = new Set(['experience', 'guideline', 'distill']);
const STRUCTURED_ROLES = new Set(['summary', 'ceo', 'recruiter']);

/** The kinds that mean something for a role. */
function kindsOf(role: string): ReasoningKind[] {
  const always: ReasoningKind[] = ['think', 'unclosed-think', 'reasoning-content', 'empty'];
  if (SOLUTION_ROLES.has(role)) return [...always, 'prose-answer', 'box-then-check', 'revised-answer'];
  if (SCORED_ROLES.has(role)) return [...always, 'verdict-in-words', 'other-scale', 'no-verdict'];
  if (JSON_ROLES.has(role)) return [...always, 'fenced-json-comment', 'prose-records'];
  if (STRUCTURED_ROLES.has(role)) return [...always, 'prose-records'];
  return always;
}

/** FNV-1a over `text`: a seed from the request. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** The role a request names ("You are the X agent", MAS-TTS's "You are the X agent" lines alike); a bare prompt is PaCoRe's synthesis. */
export function roleOf(messages: Array<{ role: string; content: string }>): string {
  const system = messages.find((m) => m.role === 'system')?.content;
  if (system === undefined) return 'synthesis';
  return /You are the ([A-Za-z-]+) agent/.exec(system)?.[1]?.toLowerCase() ?? 'unknown';
}

/** A rough token count: four characters a token. */
const tokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

const REASONING = 'Let me think about this carefully. First I restate the problem, then try small cases, then look for an invariant. ';

/** The last `\boxed{…}` of a text (balanced braces), or null. */
function lastBox(text: string): { start: number; end: number; inner: string } | null {
  const start = text.lastIndexOf('\\boxed{');
  if (start < 0) return null;
  let depth = 0;
  for (let i = start + 6; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return { start, end: i + 1, inner: text.slice(start + 7, i) };
  }
  return null;
}

/** What a solution-like reply becomes. */
function rewriteSolution(kind: ReasoningKind, content: string): string {
  const box = lastBox(content);
  if (box === null) return content;
  const before = content.slice(0, box.start);
  if (kind === 'prose-answer') return `${before}${box.inner}.\n\nSo the answer is ${box.inner}.`;
  if (kind === 'box-then-check') return `${content}\n\nLet me double-check by substituting back: the value satisfies every condition, so the answer stands.`;
  // revised: a provisional boxed value first, the final one stated at the end without a box.
  return `${before}\\boxed{${box.inner}1}${content.slice(box.end)}\n\nWait, I made an arithmetic slip in the last step. Correcting it, the final answer is ${box.inner}.`;
}

/** What a verdict or score reply becomes. */
function rewriteScored(kind: ReasoningKind, role: string, content: string): string {
  const positive = /SCORE:\s*1(?:\.0)?\b|VERDICT:\s*(?:correct|equivalent|yes)|Decision:\s*agree|Correctness:\s*(?:correct|yes|true)|\\boxed\{1\}|It is correct/i.test(content);
  const stripped = content
    .replace(/^.*(?:SCORE|VERDICT|Decision|Correctness):.*$/gim, '')
    .replace(/\\boxed\{[^}]*\}/g, '')
    .trimEnd();
  if (kind === 'no-verdict') return stripped;
  if (kind === 'verdict-in-words') return `${stripped}\n\n${positive ? 'The solution is correct.' : 'I found an error in step 3, so the solution is not correct.'}`;
  // other-scale: a grade out of 10 where [0, 1] (or a verdict) was asked, with its scale named or (odd lengths) bare.
  // A rater boxes its grade out of 10 where 0, 0.5 or 1 was asked.
  if (role === 'rater') return `${stripped}\n\nBased on my evaluation, the final overall score should be: \\boxed{${positive ? 9 : 3}}`;
  const label = role === 'judge' ? 'VERDICT' : 'SCORE';
  return `${stripped}\n\n${label}: ${positive ? 9 : 3}${content.length % 2 === 0 ? '/10' : ''}`;
}

/** What a records reply (JSON, a list, a summary, a plan) becomes. */
function rewriteRecords(kind: ReasoningKind, content: string): string {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  // A reply with no object to fence (the simulator's, at times) is sent as it came.
  if (kind === 'fenced-json-comment' && (start < 0 || end < start)) return content;
  if (kind === 'fenced-json-comment') return `Here is the update:\n\n\`\`\`json\n${content.slice(start, end + 1)}\n// the records above replace the previous ones\n\`\`\`\n`;
  return 'Overall the attempts went well. The main lessons: check small cases first, and verify every step before concluding.';
}

/** The reply of `kind` for a role, from the simulator's `content`: its text, reasoning and whether it was cut. */
function rewrite(kind: ReasoningKind | 'intact', role: string, content: string, maxTokens: number): { content: string; reasoning: string | null; cut: boolean } {
  switch (kind) {
    case 'intact':
      return { content, reasoning: null, cut: false };
    case 'think':
      return { content: `<think>\n${REASONING}\n</think>\n\n${content}`, reasoning: null, cut: false };
    case 'unclosed-think':
      return { content: `<think>\n${REASONING.repeat(Math.max(1, Math.floor((maxTokens * 4) / REASONING.length / 4)))}`, reasoning: null, cut: true };
    case 'reasoning-content':
      return { content, reasoning: REASONING, cut: false };
    case 'empty':
      return { content: content.length % 2 === 0 ? '' : '  \n\n ', reasoning: null, cut: false };
    case 'prose-answer':
    case 'box-then-check':
    case 'revised-answer':
      return { content: rewriteSolution(kind, content), reasoning: null, cut: false };
    case 'verdict-in-words':
    case 'other-scale':
    case 'no-verdict':
      return { content: rewriteScored(kind, role, content), reasoning: null, cut: false };
    default:
      return { content: rewriteRecords(kind, content), reasoning: null, cut: false };
  }
}

/** Draws the kind of a reply of `role` to a request of `body`. */
function drawKind(role: string, body: string, seed: number, shares: KindShares): ReasoningKind | 'intact' {
  let draw = (hash(`${seed}:${body}`) % 100_000) / 100_000;
  for (const kind of kindsOf(role)) {
    const share = shares[kind] ?? 0;
    if (draw < share) return kind;
    draw -= share;
  }
  return 'intact';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** Sends `reply` as the request asked: a whole body, or a stream of one chunk. */
function send(res: ServerResponse, stream: boolean, reply: SentReply): void {
  const message = { role: 'assistant', content: reply.content, ...(reply.reasoning === null ? {} : { reasoning_content: reply.reasoning }) };
  const usage = { prompt_tokens: reply.promptTokens, completion_tokens: reply.completionTokens, total_tokens: reply.promptTokens + reply.completionTokens };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'r', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message, finish_reason: reply.finishReason }], usage }));
    return;
  }
  const event = (choices: unknown[], extra: object = {}) => `data: ${JSON.stringify({ id: 'r', object: 'chat.completion.chunk', created: 0, model: 'm', choices, ...extra })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(event([{ index: 0, delta: message, finish_reason: null }]) + event([{ index: 0, delta: {}, finish_reason: reply.finishReason }]) + event([], { usage }) + 'data: [DONE]\n\n');
}

/**
 * Starts the server in front of the simulator at `target` (its /v1 URL): it
 * lists model `m` (owned by no simulator), and answers each chat completion
 * with the simulator's reply rewritten as `shares` draws, seeded by `seed`.
 */
export async function startReasoningModelServer(target: string, shares: KindShares, seed = 1) {
  const sent: SentReply[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/models')) return void res.end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'test' }] }));
      if (!req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end(JSON.stringify({ error: { message: 'not found' } }));
      const request = JSON.parse(body) as { messages: Array<{ role: string; content: string }>; max_tokens?: number; max_completion_tokens?: number; stream?: boolean };
      const maxTokens = request.max_tokens ?? request.max_completion_tokens ?? 4096;
      const upstream = await fetch(`${target}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...request, model: 'tmas-sim', stream: false }) });
      const answer = (await upstream.json()) as { choices: Array<{ message: { content: string }; finish_reason: string }>; usage: { prompt_tokens: number } };
      const role = roleOf(request.messages);
      // A reply the simulator itself cut at its limit is sent as it came: it is cut already.
      const kind = answer.choices[0]?.finish_reason === 'length' ? 'intact' : drawKind(role, body, seed, shares);
      const original = answer.choices[0]?.message.content ?? '';
      const written = rewrite(kind, role, original, maxTokens);
      // A kind that found nothing to rewrite (no box, no object) sent the reply as it came.
      const sentKind = written.content === original && written.reasoning === null && !written.cut ? 'intact' : kind;
      const cut = written.cut || answer.choices[0]?.finish_reason === 'length';
      const completion = cut ? maxTokens : Math.min(maxTokens, tokens(written.content) + (written.reasoning === null ? 0 : tokens(written.reasoning)));
      const reply: SentReply = { role, kind: sentKind, finishReason: cut ? 'length' : 'stop', promptTokens: answer.usage.prompt_tokens, completionTokens: completion, content: written.content, reasoning: written.reasoning, maxTokens };
      sent.push(reply);
      send(res, request.stream === true, reply);
    })().catch((error: unknown) => res.writeHead(500).end(JSON.stringify({ error: { message: String(error) } })));
  });
  return { ...(await listening(server)), sent };
}
