/**
 * The one way an actor sends a message: the `post` action. Actors reference it
 * by name; the runtime provides the implementation that puts the message on the
 * bus, which routes it by its type (src/kernel/routes.ts).
 */
import { TmasError } from '../src/kernel/errors.ts';
import type { Message } from '../src/kernel/protocol.ts';

/** Parameters of the `post` action. */
export interface PostParams {
  message: Message;
}

/** Placeholder registered in `setup({ actions })`; fails loudly if the runtime did not provide the bus. */
export function postNotProvided(_: unknown, params: PostParams): void {
  throw new TmasError('TMAS_NOT_PROVIDED', `cannot post ${params.message.type}: the \`post\` action was not provided`);
}
