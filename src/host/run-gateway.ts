/** The gateway of a run, with its options read from the run's configuration. */
import { createGateway, DEFAULT_BACKOFF, type Gateway, type GatewayOptions } from '../gateway/gateway.ts';
import type { JsonEncoder } from '../gateway/request-body.ts';
import type { RunConfig } from './config.ts';

/** Creates the gateway the configuration describes; `say` tells the user what it adapts to. */
export function createRunGateway(config: RunConfig, options: { encodeJson: JsonEncoder; say: (line: string) => void; countTokens: GatewayOptions['countTokens'] }): Gateway {
  return createGateway({
    concurrency: config.concurrency,
    timeoutMs: config.timeoutSeconds * 1000,
    totalTimeoutMs: config.totalTimeoutSeconds === undefined ? null : config.totalTimeoutSeconds * 1000,
    stream: config.stream ?? true,
    ...(config.replicaMaxInFlight === undefined ? {} : { replicaMaxInFlight: config.replicaMaxInFlight }),
    dialect: config.dialect ?? 'chat',
    onDialect: (endpoint, dialect, reason) => options.say(`tmas: ${endpoint} refused a field of the chat dialect (${reason}); its calls use the ${dialect} dialect from now on.`),
    onUnstreamed: (endpoint) =>
      options.say(
        `tmas: warning: ${endpoint} answers streamed requests with whole JSON replies; they are read as such, but --timeout (${config.timeoutSeconds} s) ` +
          'then covers the wait for a whole reply: raise it for long generations, or give --no-stream.',
      ),
    maxRetries: config.maxRetries,
    ...(config.retryBaseMs === undefined ? {} : { backoff: { ...DEFAULT_BACKOFF, baseMs: config.retryBaseMs } }),
    encodeJson: options.encodeJson,
    ...(options.countTokens === undefined ? {} : { countTokens: options.countTokens }),
    ...(config.serverQueue === undefined ? {} : { serverQueue: config.serverQueue }),
    ...(config.dispatchOrder === undefined ? {} : { dispatchOrder: config.dispatchOrder }),
    ...(config.batchCap === undefined ? {} : { batchCap: config.batchCap }),
    ...(config.loadPollMs === undefined ? {} : { loadPollMs: config.loadPollMs }),
  });
}
