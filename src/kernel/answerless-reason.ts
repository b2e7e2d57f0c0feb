/**
 * How an unusable output's reason begins when its only fault is that no final
 * answer could be read from it (a solution role's reply without a \boxed{} or
 * stated answer, or with its answer cut). The roles write it (machines/); the
 * report reads it: under a judge such a reply is still a candidate the judge
 * grades from its text, so its role is no role the method ran without.
 */
export const NO_FINAL_ANSWER = 'no final answer';

/** Whether an unusable output's reason is only a missing final answer. */
export function isAnswerlessReason(reason: string | null | undefined): boolean {
  return reason != null && reason.startsWith(NO_FINAL_ANSWER);
}
