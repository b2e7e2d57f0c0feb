/**
 * `tmas calls DIR`: the journaled LLM calls as JSONL, one per line, for jq and
 * pandas: the prompt as sent, the response, usage, latency and attempts (the
 * reasoning text with --with-reasoning: it is often most of the bytes).
 * Streams from LevelDB, reading only the key range the filters allow.
 */
import { openRun } from '../../analysis/open-run.ts';
import { checkRunFilters } from './run-filters.ts';
import type { CallRecord } from '../../store/store.ts';
import { callMatches, callRange, type CallFilters } from '../../viewer/queries.ts';

/** One line of `tmas calls`. */
export function toCallLine(call: CallRecord, withReasoning: boolean): Record<string, unknown> {
  const { response, ...rest } = call;
  return {
    ...rest,
    response: withReasoning ? response : { content: response.content, finishReason: response.finishReason, hasReasoning: response.reasoning !== null && response.reasoning !== '' },
  };
}

/** Writes the matching calls, one JSON line each; returns how many. */
export async function runCallsCommand(
  runDir: string,
  options: CallFilters & { withReasoning?: boolean },
  write: (line: string) => Promise<void> | void,
): Promise<number> {
  const { store, manifest } = await openRun(runDir, undefined, { journal: { none: 'tmas calls would list none', some: 'tmas calls would list the others as if they were all' } });
  const filters: CallFilters = { problem: options.problem, iteration: options.iteration, role: options.role };
  let count = 0;
  try {
    await checkRunFilters(store, manifest, runDir, filters);
    for await (const call of store.callRecords(callRange(filters))) {
      if (!callMatches(call, filters)) continue;
      await write(JSON.stringify(toCallLine(call, options.withReasoning === true)));
      count++;
    }
  } finally {
    await store.close();
  }
  return count;
}
