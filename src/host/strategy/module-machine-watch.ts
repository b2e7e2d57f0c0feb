/**
 * A role an agents module replaced with a state machine of its own is code
 * tmas cannot look into: a machine that waits on a promise that never
 * settles, or in a state it never leaves, never answers its request, and its
 * problem waited for the answer forever (the run showed 0 calls in flight
 * and never ended). Everything from outside is bounded in time: each request
 * to such a role must be answered within the call's own idle limit
 * (--timeout, default 300 s) counted from the request or from the last call
 * of the role or of the request's problem to leave, whichever is later, while
 * none of them is in flight (a call's own time is the gateway's to bound; a
 * machine may name its calls otherwise than its role, and one call streaming
 * past --timeout stopped the run as though the machine never answered). A
 * request that is not
 * stops the run with TMAS_AGENTS naming the module and the role; the calls in
 * flight are journaled first, and what was journaled is kept for a resume.
 */
import type { Observable } from 'rxjs';
import { UserError } from '../../kernel/errors.ts';
import type { Envelope, Message } from '../../kernel/protocol.ts';

/** The machines agents modules gave (an `actor` that is a machine, not a definition tmas guards), each with how errors name its module: only these are watched. */
const moduleMachines = new WeakMap<object, string>();

/** Marks `machine` as one the agents module `where` names gave, to be watched when a run uses it. */
export function markModuleMachine(machine: object, where: string): void {
  moduleMachines.set(machine, where);
}

/** The roles of `roles` whose machine an agents module gave, each with its module's name. */
export function moduleMachineRoles(roles: Record<string, unknown>): Map<string, string> {
  const found = new Map<string, string>();
  for (const [role, machine] of Object.entries(roles)) {
    const where = typeof machine === 'object' && machine !== null ? moduleMachines.get(machine) : undefined;
    if (where !== undefined) found.set(role, where);
  }
  return found;
}

/** What a run tells the watch, and what it stops. */
export interface ModuleMachineWatch {
  /** A call of a role for a problem goes out; what it returns is called when the call leaves (answered, failed, or not sent). */
  callStarted(call: { role: string; problem: string }): () => void;
  /** The run is over: the timer stops. */
  dispose(): void;
}

/** A request not yet answered: its role, what its reply must carry, and since when it waits on the module alone. */
interface Waiting {
  role: string;
  run: string;
  problem: string;
  iteration: number;
  since: number;
}

/** The watch's parts: the roles watched and their modules' names, the bound, the run's messages and its stop. */
export interface WatchParts {
  roles: ReadonlyMap<string, string>;
  boundMs: number;
  envelopes$: Observable<Envelope>;
  stop: (error: UserError) => void;
  now?: () => number;
}

/** Watches the requests of `roles`; null when there is none to watch. */
export function watchModuleMachines(parts: WatchParts): ModuleMachineWatch | null {
  if (parts.roles.size === 0) return null;
  const now = parts.now ?? (() => performance.now());
  const { roles } = parts;
  const waiting = new Map<string, Waiting>();
  // The calls by role and by problem: a request waits on its machine alone while neither has one in flight.
  const byRole = new Map<string, Activity>();
  const byProblem = new Map<string, Activity>();
  const keyOf = (message: Message) => `${message.problem}\n${message.correlation}`;
  let stopped = false;
  const stop = (error: UserError) => {
    if (stopped) return;
    stopped = true;
    parts.stop(error);
  };
  // Holds the process up while a request waits: offline (a fork's estimate, a replay) nothing else does, and Node
  // ended a process whose machine never answered with exit 13 and not a word, the timer never firing.
  let timer: NodeJS.Timeout | undefined;
  const holdWhileWaiting = () => {
    if (waiting.size > 0) timer?.ref();
    else timer?.unref();
  };
  const seen = parts.envelopes$.subscribe(({ message }) => {
    const [role, kind] = splitType(message.type);
    if (roles.has(role) && kind === 'requested') waiting.set(keyOf(message), { role, run: message.run, problem: message.problem, iteration: message.iteration, since: now() });
    else if (roles.has(role) && kind === 'completed') {
      // A reply that answers no request of its machine is delivered all the same (by its problem), and the request it
      // should have answered waited on: refused at once, not found out --timeout later as a request left unanswered.
      const answered = waiting.get(keyOf(message));
      if (answered === undefined || answered.role !== role || answered.run !== message.run || answered.iteration !== message.iteration) stop(strayReplyError(roles.get(role) ?? 'The agents module', message, waiting));
      else waiting.delete(keyOf(message));
    } else if (message.type === 'llm.failed' && roles.has(baseRole((message as { role?: string }).role ?? ''))) waiting.delete(keyOf(message));
    else if (message.type === 'problem.completed') for (const [key, entry] of waiting) if (entry.problem === message.problem) waiting.delete(key);
    holdWhileWaiting();
  });
  const check = () => {
    if (stopped) return;
    for (const [key, entry] of waiting) {
      const role = byRole.get(entry.role);
      const problem = byProblem.get(entry.problem);
      if ((role?.inFlight ?? 0) + (problem?.inFlight ?? 0) > 0) continue;
      const idle = now() - Math.max(entry.since, role?.lastLeft ?? 0, problem?.lastLeft ?? 0);
      if (idle < parts.boundMs) continue;
      stop(unansweredError(roles.get(entry.role) ?? 'The agents module', entry.role, key.slice(key.indexOf('\n') + 1), parts.boundMs));
      return;
    }
  };
  timer = setInterval(check, Math.max(50, Math.min(1_000, parts.boundMs / 4)));
  holdWhileWaiting();
  return {
    callStarted(call) {
      const activities = [activityOf(byRole, baseRole(call.role)), activityOf(byProblem, call.problem)];
      for (const activity of activities) activity.inFlight++;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        for (const activity of activities) {
          activity.inFlight--;
          activity.lastLeft = now();
        }
      };
    },
    dispose() {
      clearInterval(timer);
      seen.unsubscribe();
    },
  };
}

/** The calls in flight of a role or a problem, and when the last one left. */
interface Activity {
  inFlight: number;
  lastLeft: number;
}

/** The activity kept for `key`, made at its first call. */
function activityOf(activities: Map<string, Activity>, key: string): Activity {
  const found = activities.get(key);
  if (found !== undefined) return found;
  const made = { inFlight: 0, lastLeft: 0 };
  activities.set(key, made);
  return made;
}

/** A message type's role and kind: `summary.requested` is [summary, requested]. */
function splitType(type: string): [string, string] {
  const dot = type.lastIndexOf('.');
  return dot < 0 ? [type, ''] : [type.slice(0, dot), type.slice(dot + 1)];
}

/** A call's role without its suffix (`summary#1`, `summary#forced`: summary). */
function baseRole(role: string): string {
  const hash = role.indexOf('#');
  return hash < 0 ? role : role.slice(0, hash);
}

/** The error of a request a module's machine left unanswered. */
function unansweredError(module: string, role: string, correlation: string, boundMs: number): UserError {
  const seconds = Math.round(boundMs / 100) / 10;
  return new UserError(
    'TMAS_AGENTS',
    `${module}: the ${role} actor (a machine of the module's own) left its request ${correlation} unanswered for ${seconds} s with none of its calls in flight (--timeout ${seconds}): ` +
      `it waits on something that never settles (a promise that never resolves, a state it never leaves). Fix the module so that every ${role}.requested gets its ${role}.completed, or run without --agents; the calls journaled so far are kept for the resume.`,
  );
}

/**
 * The error of a reply a module's machine posted that answers none of its
 * requests: another correlation, problem, iteration or run than any request
 * waiting (a reply not built on `replyBase(request)`), or a second reply to
 * one request.
 */
function strayReplyError(module: string, reply: Message, waiting: ReadonlyMap<string, Waiting>): UserError {
  const [role] = splitType(reply.type);
  const ofRole = [...waiting].filter(([, entry]) => entry.role === role && entry.problem === reply.problem).map(([key]) => key.slice(key.indexOf('\n') + 1));
  const open = ofRole.length === 0 ? `no ${role}.requested of problem ${reply.problem} waits for a reply` : `the ${role} requests of problem ${reply.problem} waiting are ${ofRole.slice(0, 3).join(', ')}${ofRole.length > 3 ? ` and ${ofRole.length - 3} more` : ''}`;
  return new UserError(
    'TMAS_AGENTS',
    `${module}: the ${role} actor (a machine of the module's own) posted a ${role}.completed (problem ${reply.problem}, iteration ${reply.iteration}, correlation ${reply.correlation}) that answers none of its requests: ${open}. ` +
      `Each ${role}.requested gets one ${role}.completed with the request's run, problem, iteration and correlation (start it with ...replyBase(request)). Fix the module, or run without --agents; the calls journaled so far are kept for the resume.`,
  );
}
