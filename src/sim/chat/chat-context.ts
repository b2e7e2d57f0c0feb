/**
 * What the chat handler (chat.ts) shares with the server that runs it
 * (server.ts): the server's settings, its counters, the attempts it has seen
 * and the ways it waits and holds responses, which its close ends.
 */
import type { ServerResponse } from 'node:http';
import type { Catalogue } from '../model/catalogue.ts';
import type { SimReasoningDialect } from '../http/completion.ts';
import type { CapacityEngine } from '../capacity/engine.ts';
import type { CapacitySettings } from '../capacity/options.ts';
import type { FaultRates } from '../faults/faults.ts';
import type { LatencyOptions } from '../http/latency.ts';
import type { RequestLog } from '../http/request-log.ts';
import type { ReplySettings } from './respond.ts';
import type { SimRoles } from '../model/sim-roles.ts';
import type { StreamSettings } from '../http/stream.ts';

/** Counters the server reports through `stats()`. */
export interface SimStats {
  /** Every HTTP request, whatever its route or outcome. */
  requests: number;
  /** Chat completion requests by role. */
  byRole: Record<string, number>;
  /** Injected faults by kind. */
  faults: Record<string, number>;
  /** Replies that broke their format, by how (SimOptions.breakFormats); all 0 when the mode is off. */
  formatBreaks: Record<string, number>;
  /** Chat requests whose `<problem>` block matched none of the server's problems. */
  unknownProblems: number;
}

/** What the chat handler needs from the server. */
export interface ChatContext {
  settings: ReplySettings;
  model: string;
  /** The models served; null: any name is accepted and echoed. */
  models: ReadonlySet<string> | null;
  reasoningDialect: SimReasoningDialect;
  /** The stream's pace and chunking, defaults filled in. */
  stream: Required<StreamSettings>;
  /** Refuse `max_tokens` and sampling fields as OpenAI's reasoning models do. */
  openaiReasoning: boolean;
  catalogue: Catalogue;
  /** The role names it answers and each one's reply format (SimOptions.roles). */
  roles: SimRoles;
  faults: FaultRates;
  /** Share of replies that break their role's format (SimOptions.breakFormats). */
  breakFormats: number;
  latency: LatencyOptions | 0;
  /** The capacity model, when on: it decides when replies come and how many tokens they report. */
  capacity: { engine: CapacityEngine; settings: CapacitySettings } | null;
  /** Under the capacity model, whether `continuous_usage_stats` is honoured (SimOptions.continuousUsage). */
  continuousUsage: boolean;
  /** Epoch seconds the server started: the `created` of every response. */
  created: number;
  stats: SimStats;
  /** Attempts seen per request body whose last attempt failed (the key is the body's sha256). */
  attempts: Map<string, number>;
  log: RequestLog | null;
  /** Resolves true after `ms`, or false as soon as the server closes. */
  sleep(ms: number): Promise<boolean>;
  /** Keeps a response open until the client gives up or the server closes. */
  hold(res: ServerResponse): void;
}
