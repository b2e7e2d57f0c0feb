/**
 * A refusal that says the account has nothing left to spend: OpenAI's and
 * Azure's 429 `insufficient_quota` ("You exceeded your current quota,
 * please check your plan and billing details"), a 402 Payment Required
 * (OpenRouter's "Insufficient credits", DeepSeek's "Insufficient Balance",
 * DeepInfra's and Together's spent balances), Anthropic's 400 "Your credit
 * balance is too low". No wait makes it pass: read as a rate limit, each call
 * was retried for minutes and the run stopped as an endpoint down, advising
 * to check the server or lower --concurrency; read as a refused request,
 * every call of the run was sent and refused. It stops the run at once.
 *
 * Gemini words a per-minute rate limit as "You exceeded your current quota"
 * too, under a 429 RESOURCE_EXHAUSTED that passes once the minute does: the
 * message alone is no sign of a spent account, only the code or status is.
 */
import { APIError } from 'openai';

/** The codes and types that name a spent quota or balance. */
const SPENT_CODES = new Set(['insufficient_quota', 'insufficient_balance', 'insufficient_credits', 'billing_hard_limit_reached', 'billing_not_active']);

/** Words of a spent balance that no rate limit uses. */
const SPENT_WORDS = /credit balance is too low|insufficient (?:balance|credits?|funds)|billing hard limit/i;

/** Whether `error` says the account's quota, credits or balance are spent. */
export function quotaSpent(error: unknown): boolean {
  if (!(error instanceof APIError) || error.status === undefined) return false;
  if (error.status === 402) return true;
  if (error.status !== 400 && error.status !== 403 && error.status !== 429) return false;
  const named = [error.code, error.type].some((word) => typeof word === 'string' && SPENT_CODES.has(word.toLowerCase()));
  return named || SPENT_WORDS.test(error.message);
}
