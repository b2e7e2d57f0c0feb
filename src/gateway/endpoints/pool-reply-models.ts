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
 * sibling has answered yet, the reply is not counted and its call goes to a
 * sibling, whose answer decides; where the siblings answer with the same
 * name, it is an alias the whole pool uses (a proxy, a deployment's name),
 * counted as before.
 */

import { ReplyError } from '../reply/reply-bounds.ts';
import type { CompletionRequest } from '../reply/completion.ts';
import type { EndpointState } from './endpoint-state.ts';
import type { ReplicaPool } from './replica-pool.ts';

/** What a reply's model says of its replica: the model asked, or an alias its siblings share; unknown yet; another model. */
export type ReplyModelVerdict = 'served' | 'unsure' | 'other';

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
   * `asked` with `named`, and judges it (served, unsure, other). A lone
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
      if (named === null || replicas.length < 2) return 'served';
      const family = modelFamily(named);
      let own = answered.get(replica);
      if (own === undefined) answered.set(replica, (own = new Set()));
      own.add(family);
      const wanted = modelFamily(asked);
      if (family === wanted) return 'served';
      const siblings = replicas.filter((url) => url !== replica).map((url) => answered.get(url) ?? new Set<string>());
      if (siblings.some((families) => families.has(wanted))) return 'other';
      if (siblings.some((families) => families.has(family))) return 'served';
      return 'unsure';
    },
  };
}

/**
 * A replica of a pool that answers with another model than its siblings
 * serve is drained, and its reply, never counted, goes to a sibling as a
 * failed attempt (thrown); a reply whose model no sibling has confirmed nor
 * denied yet goes to a sibling too, whose answer decides.
 */
export function refuseOtherModel(models: PoolReplyModels, pool: ReplicaPool, reply: { state: EndpointState; request: CompletionRequest; named: string | null }): void {
  const { state, request, named } = reply;
  const { model: asked, replicas = [] } = request.endpoint;
  const verdict = models.judge({ replicas, replica: state.url, asked, named });
  if (verdict === 'served' || (verdict === 'unsure' && !pool.hasOtherLive(state, request))) return;
  const error =
    verdict === 'other'
      ? new ReplyError('other-model', `the replica answered with the model "${named}", not "${asked}", which its sibling replicas answer with: its replies are not counted, and it is drained (check the model this server runs)`)
      : new ReplyError('other-model', `the replica answered with the model "${named}", not "${asked}": the call goes to a sibling replica, whose model decides whether that name is an alias`);
  // A probe's reply that names no model does not show the replica mended: it stays out.
  const stillOther = (probed: string | null) => probed === null || models.judge({ replicas, replica: state.url, asked, named: probed }) === 'other';
  if (verdict === 'other') pool.drainNow(state, request, error, stillOther);
  throw error;
}
