/**
 * A role whose reply becomes bank records (TMAS's experience and guideline
 * agents, RSE's distiller): a `memory` role with a template, whose reply's
 * text is parsed into records, and whose unparseable reply carries no records
 * and a `parseError` saying why, never an exception.
 */
import type { CallInfo, Message, MessageOf, MessageType } from '../src/kernel/protocol.ts';
import type { LlmOutput } from './llm.ts';
import { callInfo, statedText, unusableBecause } from './reply.ts';
import type { RoleDefinition } from './role.machine.ts';
import { templateRole, type RequestOf, type RoleName, type TemplateRoleFields } from './template-role.ts';

/** What a reply's text is parsed into: records, and `parseError` (null when it parsed). */
export interface ParsedRecords {
  parseError: string | null;
}

/** A bank-record role: a template role whose reply is made from what its text parses into. */
export interface BankRecordRoleDefinition<T extends MessageType, P extends ParsedRecords> extends Omit<TemplateRoleFields<T>, 'kind' | 'reply' | 'validate'> {
  /** What a reply's text becomes; throws (a SyntaxError, a schema's error) when it is not of the schema. */
  parse(request: MessageOf<T>, output: LlmOutput): P;
  /** What a reply becomes that `parse` threw on: no records, and the reason. */
  unparsed(parseError: string): P;
  /** The reason a throw of `parse` gives; absent: the error's message. */
  describe?(error: unknown): string;
  /** The reply message: what it copies from its request, what it parsed into, and its call. */
  reply(request: MessageOf<T>, parsed: P, call: CallInfo): Message;
  /**
   * An unparseable reply is asked again (up to `--parse-retries`), as TMAS's
   * banks are; false where the problem actor asks again itself (RSE's
   * distiller, whose attempts are calls of their own).
   */
  retried: boolean;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What `bankRecordRole` makes: a role definition whose `validate` is there to call when its replies are retried. */
export type BankRecordRole<T extends MessageType, Retried extends boolean> = Omit<TemplateRoleFields<T>, 'reply'> & {
  role: string;
  request: T;
  prompt: RoleDefinition<T>['prompt'];
  reply(request: MessageOf<T>, output: LlmOutput): Message;
} & (Retried extends true ? { validate(request: MessageOf<T>, output: LlmOutput): string | null } : unknown);

/** The definition of the bank-record role named `role`, answering `<role>.requested`. */
export function bankRecordRole<R extends RoleName, P extends ParsedRecords, Retried extends boolean>(
  role: R,
  definition: BankRecordRoleDefinition<RequestOf<R>, P> & { retried: Retried },
): BankRecordRole<RequestOf<R>, Retried> {
  type T = RequestOf<R>;
  const { parse, unparsed, describe = messageOf, reply, retried, ...fields } = definition;
  // A cut reply's records are none (reply.ts statedText), whatever JSON it had closed on its way.
  const parsed = (request: MessageOf<T>, output: LlmOutput): P => {
    try {
      return parse(request, { ...output, content: statedText(output) });
    } catch (error) {
      return unparsed(describe(error));
    }
  };
  const validate = (request: MessageOf<T>, output: LlmOutput) => unusableBecause(parsed(request, output).parseError, output);
  return {
    ...templateRole(role, { ...fields, kind: 'memory', reply: (request: MessageOf<T>, output: LlmOutput) => reply(request, parsed(request, output), callInfo(output)) }),
    ...(retried ? { validate } : {}),
  } as BankRecordRole<T, Retried>;
}

/**
 * `parse` and `unparsed` of a role whose reply is one list of records
 * (`records`), each with its provenance: the iteration and the call's key.
 */
export function recordList<R>(parse: (text: string, iteration: number, callKey: string) => R[]) {
  return {
    parse: (request: Message, output: LlmOutput) => ({ records: parse(output.content, request.iteration, output.key), parseError: null as string | null }),
    unparsed: (parseError: string) => ({ records: [] as R[], parseError: parseError as string | null }),
  };
}
