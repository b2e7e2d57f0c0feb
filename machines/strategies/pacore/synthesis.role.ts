/**
 * The one role of `pacore` (PaCoRe, arXiv 2601.05593; stepfun-ai/PaCoRe).
 * Round 0 sends the problem exactly as given; every later round sends one
 * prompt built as in the paper's Table 6: the problem, the previous round's
 * responses as numbered references, and a request for the model's own
 * comprehensive solution. No system message in either, as upstream.
 */
import { extractAnswer } from '../../../src/grader/index.ts';
import type { MessageOf } from '../../../src/kernel/protocol.ts';
import type { PromptPart, PromptSpec } from '../../prompt.ts';
import { callInfo, replyBase } from '../../reply.ts';
import { createRoleMachine, type RoleDefinition } from '../../role.machine.ts';

/**
 * The synthesis prompt. References that do not fit the window are dropped
 * from the end (the last one first): each has a drop rank below the one
 * before it, and the `context.trimmed` message names what was left out.
 */
export function synthesisPrompt(request: MessageOf<'synthesis.requested'>): PromptSpec {
  if (request.references.length === 0) return { system: '', parts: [{ id: 'problem', text: request.question }] };
  const count = request.references.length;
  const references: PromptPart[] = request.references.map((text, index) => ({
    id: `reference-${index + 1}`,
    text: `Reference ${index + 1}:\n${text}`,
    drop: count - 1 - index,
  }));
  return {
    system: '',
    parts: [
      { id: 'task', text: 'Here is a problem together with several reference responses to it. Examine the references critically, then write a response of your own.' },
      { id: 'problem', text: `Original problem:\n${request.question}` },
      { id: 'references-open', text: 'Reference responses:' },
      ...references,
      { id: 'instructions', text: 'Using the problem and the reference responses above, write your own complete and comprehensive solution.' },
    ],
  };
}

/** The synthesis role's definition. */
export const synthesisRole = {
  role: 'synthesis',
  endpoint: 'solution',
  request: 'synthesis.requested',
  index: (request) => request.candidate,
  prompt: synthesisPrompt,
  reply: (request, output) => ({
    type: 'synthesis.completed',
    ...replyBase(request),
    candidate: request.candidate,
    text: output.content,
    // A response cut at the length limit has no final answer.
    answer: output.finishReason === 'length' ? null : extractAnswer(output.content),
    call: callInfo(output),
  }),
} satisfies RoleDefinition<'synthesis.requested'>;

/** The synthesis role's actor definition. */
export const synthesisMachine = createRoleMachine(synthesisRole);
