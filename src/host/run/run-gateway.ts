/** The gateway of a run, with its options read from the run's gateway settings. */
import { createGateway, DEFAULT_BACKOFF, type Gateway, type GatewayOptions } from '../../gateway/gateway.ts';
import type { JsonEncoder } from '../../gateway/request/request-body.ts';
import { redirectAdvice } from '../../gateway/request/redirects.ts';
import type { GatewayConfig } from '../../settings/config.ts';
import type { Pool } from '../../pool/pool.ts';

/** Creates the gateway the settings describe; `say` tells the user what it adapts to. */
export function createRunGateway(config: GatewayConfig, options: { encodeJson: JsonEncoder; say: (line: string) => void; countTokens: GatewayOptions['countTokens'] }): Gateway {
  return createGateway({
    concurrency: config.concurrency,
    timeoutMs: config.timeoutSeconds * 1000,
    totalTimeoutMs: config.totalTimeoutSeconds === null ? null : config.totalTimeoutSeconds * 1000,
    keepAliveTimeoutMs: config.keepAliveTimeoutSeconds === null ? null : config.keepAliveTimeoutSeconds * 1000,
    stream: config.stream,
    ...(config.replicaMaxInFlight === null ? {} : { replicaMaxInFlight: config.replicaMaxInFlight }),
    dialect: config.dialect,
    onDialect: (endpoint, dialect, reason) => options.say(`tmas: ${endpoint} refused a field of the chat dialect (${reason}); its calls use the ${dialect} dialect from now on: max_completion_tokens for max_tokens, and no temperature, top_p, top_k or min_p (the model samples at its own settings).`),
    onOmitted: (endpoint, field, reason) => options.say(omittedFieldNote(endpoint, field, reason, config.timeoutSeconds)),
    onOtherModel: (endpoint, asked, named) =>
      options.say(
        `tmas: warning: ${endpoint} answers requests for the model "${asked}" with replies from "${named}". ` +
          'A hosted API may name a dated version of the model asked for; otherwise check that the server serves the model this run is meant to evaluate.',
      ),
    onFiltered: (endpoint) =>
      options.say(
        `tmas: warning: ${endpoint} stopped a reply with its content filter (finish_reason "content_filter"), or its model refused (a refusal in place of the answer); such a reply gives no answer and counts as unusable ` +
          '(asked again with another seed, up to --parse-retries times); metrics.json counts them as filtered.',
      ),
    onReasoningOnly: (endpoint, dialect) => options.say(reasoningOnlyWarning(endpoint, dialect)),
    onFinishUnknown: (endpoint, said) =>
      options.say(
        `tmas: warning: ${endpoint} ${said === null ? 'ends its replies without a finish reason' : `ends its replies with the finish reason ${said}, which tmas does not know`}; ` +
          'such a reply counts as cut at the length limit when its completion tokens reached the call\'s completion limit, max_tokens (by its usage, else by the run\'s count of its text), and as whole otherwise.',
      ),
    onRedirected: (redirect) =>
      options.say(
        `tmas: warning: ${redirect.from} was redirected (HTTP ${redirect.status}) to ${redirect.to}; the redirect is followed, but every request goes out twice, its body too` +
          `${new URL(redirect.from).origin === new URL(redirect.to).origin ? '' : ', and an API key is not sent on to another server'}: ${redirectAdvice(redirect.to)}.`,
      ),
    onKeepAlive: (endpoint, data) =>
      options.say(
        `tmas: warning: ${endpoint} sends data that is no JSON inside its streams (data: ${JSON.stringify(data.slice(0, 40))}), as a proxy or gateway does to keep a connection open; ` +
          'such data is skipped as a keep-alive (data that opens with { and does not parse is still a damaged reply, retried).',
      ),
    onKeepAlivesOnly: (endpoint, limitMs) =>
      options.say(
        `tmas: warning: ${endpoint} sent nothing but keep-alives (comments such as ": ping", events without text) for ${limitMs / 1000} s on a call; the attempt was given up and retried, and the progress line counts such retries as keepalive. ` +
          'A proxy in front of a server that hung does this: check the server behind it. A model that reasons in hidden for longer (through OpenRouter) needs a higher --keepalive-timeout.',
      ),
    onSeveralChoices: (endpoint, choices) =>
      options.say(
        `tmas: warning: ${endpoint} sent ${choices} choices in a reply where one was asked (n is never sent): the server decodes, and a hosted API bills, every one; ` +
          "tmas reads choice 0 and counts its tokens by its text, as the usage counts them all. Check the server's or proxy's default n.",
      ),
    onImpossibleUsage: (endpoint, what) =>
      options.say(
        `tmas: warning: ${endpoint} reports usage counts no reply could have (${what}). ` +
          'A proxy or server that fills in the usage wrongly does this; metrics.json and the table\'s token figures rest on the run\'s own counts for those replies.',
      ),
    onUnstreamed: (endpoint) =>
      options.say(
        `tmas: warning: ${endpoint} answers streamed requests with whole JSON replies; they are read as such, but --timeout (${config.timeoutSeconds} s) ` +
          'then covers the wait for a whole reply: raise it for long generations, or give --no-stream.',
      ),
    onMetricsUnused: (endpoint, reason) =>
      options.say(
        `tmas: warning: ${endpoint}: ${reason}. Its metrics are not used from now on: its load is inferred from our streams, and its throughput knee measured from them.`,
      ),
    onMetricsFound: (endpoint) => options.say(`tmas: ${endpoint}: its /metrics answer now (they did not when the run started); its load is read from them from now on.`),
    // A replica drained or back is told (a call's own retries are counted in the progress line instead).
    onRetry: (event) => {
      if (event.attempt === 0) options.say(`tmas: replica ${event.endpoint}: ${event.error}`);
    },
    maxRetries: config.maxRetries,
    backoff: { ...DEFAULT_BACKOFF, baseMs: config.retryBaseMs },
    encodeJson: options.encodeJson,
    ...(options.countTokens === undefined ? {} : { countTokens: options.countTokens }),
    serverQueue: config.serverQueue,
    dispatchOrder: config.dispatchOrder,
    batchCap: config.batchCap,
    routing: config.routing,
    loadPollMs: config.loadPollMs,
  });
}

/** What a field an endpoint refused, and its calls now go without, changes for the run. */
function omittedFieldNote(endpoint: string, field: string, reason: string, timeoutSeconds: number): string {
  if (field === 'stream') {
    return (
      `tmas: ${endpoint} refused streamed requests (${reason}); its calls are sent without streaming from now on, each reply read whole: ` +
      `--timeout (${timeoutSeconds} s) then covers the wait for a whole reply (the total limit alone, in the openai-reasoning dialect), and a reply still generating past it is cut and paid again: raise it for long generations (give --no-stream to send none streamed).`
    );
  }
  if (field === 'system') {
    return `tmas: ${endpoint} refused the system role (${reason}); its calls are sent with the system message opening the first user message from now on, as chat templates without a system role render it.`;
  }
  const effect = field === 'seed' ? "their samples do not follow the run's seeds." : "their tokens are counted with the run's tokenizer.";
  return `tmas: ${endpoint} refused the ${field} field (${reason}); its calls are sent without it from now on: ${effect}`;
}

/** The gateway the settings describe, serialising request bodies and counting tokens on `pool`'s threads. */
export function createGatewayOnPool(config: GatewayConfig, pool: Pool, say: (line: string) => void): Gateway {
  return createRunGateway(config, {
    encodeJson: (value) => pool.encodeJson(value),
    say,
    countTokens: (texts, signal) => pool.countTokens(texts, signal === undefined ? {} : { signal }),
  });
}

/**
 * What a user is told of an endpoint that finished a reply with all its text
 * in the reasoning: by a field of its own, a reasoning parser that does not
 * match the model is the usual cause; inline, a reasoning opened and never
 * closed, a stop sequence or a turn ended inside the thinking.
 */
export function reasoningOnlyWarning(endpoint: string, dialect: string): string {
  const inline = dialect === 'think-tags' || dialect === 'harmony';
  const what = inline ? `its reasoning opened inline (${dialect}) and never closed` : `all its text in the reasoning (${dialect})`;
  const cause = inline
    ? 'A stop sequence that ends the thinking (a "stop" in --extra-body) or a model that ends its turn inside its thinking does this.'
    : "A reasoning parser that does not match the model does this (vLLM's or SGLang's deepseek_r1 parser on a model that writes no <think>, or on Qwen3 with enable_thinking false): serve it with the model's own parser, or without one.";
  return `tmas: warning: ${endpoint} finished a reply (finish_reason "stop") with ${what} and an empty answer (content); no role takes an answer, verdict or score from the reasoning, so such a reply gives none and counts as unusable. ${cause}`;
}
