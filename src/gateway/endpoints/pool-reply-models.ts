/**
 * Which model a replica of a pool answers with. Every replica of a pool is
 * one model's, and its replies are counted into one table: a replica that
 * lists the model asked for but generates with another (a node restarted
 * with another checkpoint behind the same name, llama.cpp serving whatever
 * it loaded whatever `model` says) made a share of the run's answers another
 * model's, and was only warned about.
 *
 * A reply's `model` is read loosely, as servers and APIs write it: hosted
 * APIs answer with a dated name (`gpt-4o-2024-08-06` for `gpt-4o`,
 * `claude-3-5-sonnet-20241022` for `…-latest`), some with the organisation
 * (`openai/gpt-4o`), and vLLM with the first of its served names, whichever
 * was asked. A name that is none of these forms of the name asked is taken
 * for another model only where a sibling replica vouches for the name asked:
 * then the replica is drained (its siblings serve the model, so the run can
 * still give what was asked; refusing the run would lose it). Where no
 * sibling has answered with the name asked, the reply is counted, and warned
 * about, as a lone endpoint's: a pool may answer with names that are all
 * aliases (a proxy's, each node's own first `--served-model-name`), and
 * refusing them until a sibling vouched paid each call again on every
 * replica and failed it. An empty `model` names nothing.
 */

import { ReplyError } from '../reply/reply-bounds.ts';
import type { CompletionRequest } from '../reply/completion.ts';
import type { EndpointState } from './endpoint-state.ts';
import type { ReplicaPool } from './replica-pool.ts';

/** What a reply's model says of its replica: the model asked, or a name no sibling contradicts; another model. */
export type ReplyModelVerdict = 'served' | 'other';

/** A trailing date (`-2024-08-06`, `-20241022`, `-0613`) or `latest` tag, which names a version of the model asked for. */
const VERSION_SUFFIX = /(?:[-@](?:\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest)|:latest)$/;

/** The model a name names, as replies write it: in lower case, without an organisation's or resource's prefix, a date or `latest`. */
export function modelFamily(name: string): string {
  const bare = name.trim().toLowerCase();
  const own = bare.slice(bare.lastIndexOf('/') + 1);
  return own.replace(VERSION_SUFFIX, '');
}

/** The models the replicas of each pool answered with, by pool and replica. */
export interface PoolReplyModels {
  /**
   * Records that `replica` of the pool of `replicas` answered a request for
   * `asked` with `named`, and judges it (served, other). A lone
   * endpoint's replies are always served: an alias there cannot be told
   * from another model, and is warned about.
   */
  judge(reply: { replicas: readonly string[]; replica: string; asked: string; named: string | null }): ReplyModelVerdict;
}

/** A fresh record of the models each pool's replicas answered with. */
export function createPoolReplyModels(): PoolReplyModels {
  // Families each replica answered with, by replica URL; a replica is of one pool.
  const answered = new Map<string, Set<string>>();
  return {
    judge({ replicas, replica, asked, named }) {
      // An empty name (some proxies send "model": "") says nothing of the model.
      if (named === null || named.trim() === '' || replicas.length < 2) return 'served';
      const family = modelFamily(named);
      let own = answered.get(replica);
      if (own === undefined) answered.set(replica, (own = new Set()));
      own.add(family);
      const wanted = modelFamily(asked);
      if (family === wanted) return 'served';
      const siblings = replicas.filter((url) => url !== replica).map((url) => answered.get(url) ?? new Set<string>());
      return siblings.some((families) => families.has(wanted)) ? 'other' : 'served';
    },
  };
}

/**
 * A replica of a pool that answers with another model than its siblings
 * serve is drained, and its reply, never counted, goes to a sibling as a
 * failed attempt (thrown).
 */
export function refuseOtherModel(models: PoolReplyModels, pool: ReplicaPool, reply: { state: EndpointState; request: CompletionRequest; named: string | null }): void {
  const { state, request, named } = reply;
  const { model: asked, replicas = [] } = request.endpoint;
  const verdict = models.judge({ replicas, replica: state.url, asked, named });
  if (verdict === 'served') return;
  const error = new ReplyError('other-model', `the replica answered with the model "${named}", not "${asked}", which its sibling replicas answer with: its replies are not counted, and it is drained (check the model this server runs)`);
  // A probe's reply that names no model does not show the replica mended: it stays out.
  const stillOther = (probed: string | null) => probed === null || models.judge({ replicas, replica: state.url, asked, named: probed }) === 'other';
  pool.drainNow(state, request, error, stillOther);
  throw error;
}
