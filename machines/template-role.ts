/**
 * A role whose user message is a template, written as its template and what
 * is its own: `templateRole` derives the prompt from the template (so `tmas
 * prompts` shows, and `--prompt ROLE=FILE` replaces, what is sent), and a role
 * that writes a candidate's solution replies with `answerReply`, the reply
 * every such role makes: the text, the answer read from it, and why it is
 * unusable when it is.
 */
import { extractAnswer } from '../src/grader/index.ts';
import type { CallInfo, Message, MessageBase, MessageOf, MessageType } from '../src/kernel/protocol.ts';
import type { LlmOutput } from './llm.ts';
import { answerFields, callInfo, replyBase } from './reply.ts';
import { templatePrompt, type RoleTemplate } from './role-template.ts';
import { oneCallPerCandidate, type CallSubject, type RoleDefinition, type RoleOptions } from './role.machine.ts';

/** A role's name: what its request message is called before `.requested`. */
export type RoleName<M extends MessageType = MessageType> = M extends `${infer N}.requested` ? N : never;

/** The request message type of the role named `R`. */
export type RequestOf<R extends RoleName> = Extract<`${R}.requested`, MessageType>;

/** A role's definition with its user message as a template, and no `prompt`: the template's is the prompt. */
export type TemplateRoleDefinition<T extends MessageType> = Omit<RoleDefinition<T>, 'prompt' | 'template'> & {
  template: RoleTemplate<MessageOf<T>, RoleOptions>;
};

/** What a template role's definition says beyond its name, from which its request type follows (`<role>.requested`). */
export type TemplateRoleFields<T extends MessageType> = Omit<TemplateRoleDefinition<T>, 'role' | 'request'>;

/**
 * The definition of the role named `role`, answering `<role>.requested`,
 * whose prompt is its template's (`templatePrompt`). It keeps the type of
 * what it is given, as `satisfies RoleDefinition` would: a `validate` given
 * is there to call.
 */
export function templateRole<R extends RoleName, D extends TemplateRoleFields<RequestOf<R>>>(
  role: R,
  definition: D & TemplateRoleFields<RequestOf<R>>,
): D & RoleDefinition<RequestOf<R>> & { template: RoleTemplate<MessageOf<RequestOf<R>>, RoleOptions> } {
  return { role, request: `${role}.requested` as RequestOf<R>, ...definition, prompt: templatePrompt(definition.template) };
}

/** `index` and `subject` of a role that makes one call per candidate, indexed by the candidate. */
export function onePerCandidate(role: string): { index(request: { candidate: number }): number; subject: (index: number) => CallSubject } {
  return { index: (request) => request.candidate, subject: oneCallPerCandidate(role) };
}

/** What a reply that carries one candidate's written solution holds, and nothing more. */
type AnswerFields = MessageBase & { candidate: number; text: string; answer: string | null; parseError?: string; call: CallInfo };

/** The reply types that are exactly a written solution (refine, rewrite, synthesis): those `answerReply` may make. */
export type AnswerReplyType = { [K in MessageType]: AnswerFields & { type: K } extends MessageOf<K> ? K : never }[MessageType];

/**
 * The reply of a role that writes a candidate's solution: its text, the
 * answer extracted from it (none from a text cut at the length limit:
 * reply.ts answerFields), and `parseError` when it is unusable (no final
 * answer with short answers, an empty or cut-off proof).
 */
export function answerReply(type: AnswerReplyType) {
  return (request: Message & { candidate: number }, output: LlmOutput, options: RoleOptions): Message => {
    const answer = extractAnswer(output.content);
    const reply: AnswerFields & { type: AnswerReplyType } = {
      type,
      ...replyBase(request),
      candidate: request.candidate,
      text: output.content,
      ...answerFields(answer, output, options.proof),
      call: callInfo(output),
    };
    return reply as Message;
  };
}
