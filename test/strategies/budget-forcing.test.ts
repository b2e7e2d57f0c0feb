/**
 * MAS-TTS's budget forcing, end to end on the simulated model over real
 * sockets: a `mas-ceo` solver or critic reply cut at the CEO's budget is
 * continued by a call of its own whose messages end with the cut text and a
 * cue, sent for the server to continue; the reply is the concatenation, and
 * has the answer the cut reply lacked.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { extractAnswer } from '../../src/grader/index.ts';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import { requestHead } from '../../src/gateway/request/request-body.ts';
import { runEvaluation } from '../../src/host/run/run-evaluation.ts';
import { loadProblems } from '../../src/input/problems.ts';
import { startSimServer, type SimServer } from '../../src/sim/server.ts';
import type { CallRecord } from '../../src/store/store.ts';
import { additionRequest, chatCompletionBody, ofType, readJournal, readLog, smallProblems, startProxy, test, writeProblems } from '../fixtures.ts';

const PROBLEMS = smallProblems(3);
/** mas-ceo, two rounds; with solutions of about 6000 tokens against the simulated CEO's budgets of 2048 to 8192, most solver replies are cut. */
const LONG = ['--no-proof', '--strategy', 'mas-ceo', '--max-iterations', '2', '--concurrency', '16'];
const QUIET = { stdout: () => {}, stderr: () => {} };

/** Runs tmas in-process (resuming `--output-file` when asked), as `tmas run` would. */
async function run(args: string[], resume = false) {
  const { config, secrets } = toRunConfig(parseRunFlags(args), {});
  return runEvaluation(config, secrets, await loadProblems(config.problems.inputFile), QUIET, { resume });
}

/** The forced continuations of a run's journal, each with the call whose cut reply it continues. */
function forcedCalls(calls: CallRecord[]): Array<{ cut: CallRecord; forced: CallRecord }> {
  return calls
    .filter((call) => call.role.endsWith('#forced'))
    .map((forced) => {
      const role = forced.role.slice(0, -'#forced'.length);
      const cut = calls.find((c) => c.role === role && c.problem === forced.problem && c.iteration === forced.iteration && c.index === forced.index);
      if (cut === undefined) throw new Error(`no cut call for ${forced.key}`);
      return { cut, forced };
    });
}

describe('budget forcing (mas-ceo)', () => {
  test('a reply cut at the CEO budget is continued after a final-answer cue, within half the budget; the solutions have answers; a resume pays for nothing', async ({ dir }) => {
    const input = await writeProblems(dir, PROBLEMS);
    const out = path.join(dir, 'out');
    const args = [...LONG, '--input-file', input, '--output-file', out, '--sim-output-tokens', '6000'];
    await run(args);
    const calls = await readJournal(out);
    const pairs = forcedCalls(calls);
    expect(pairs.length).toBeGreaterThan(0);
    const messages = (await readLog(out)).map((envelope) => envelope.message);
    for (const { cut, forced } of pairs) {
      // Cut at its budget, the reply had no answer: without the continuation the round would have none.
      expect(cut.response.finishReason).toBe('length');
      expect(extractAnswer(cut.response.content)).toBeNull();
      // The continuation is the same conversation and the cut text with the cue, as the assistant's, to continue.
      expect(forced.request.messages.slice(0, -1)).toEqual(cut.request.messages);
      expect(forced.request.messages.at(-1)).toEqual({ role: 'assistant', content: `${cut.response.content.trimEnd()}\n\nFinal answer:` });
      expect(forced.request.maxTokens).toBe(Math.floor(cut.request.maxTokens / 2));
      if (cut.role !== 'solver') continue;
      const [reply] = ofType(messages, 'solver.completed', cut.problem, cut.iteration).filter((m) => m.call.key === cut.key);
      expect(reply?.text).toBe(`${cut.response.content.trimEnd()}\n\nFinal answer: ${forced.response.content}`);
      expect(reply?.answer).not.toBeNull();
      // The reply's tokens are those of both calls.
      expect(reply?.call.usage.completionTokens).toBe(cut.usage.completionTokens + forced.usage.completionTokens);
    }
    // Every solution the rounds produced has an answer, the cut ones included.
    const solutions = ofType(messages, 'solver.completed');
    expect(solutions.length).toBeGreaterThan(0);
    for (const solution of solutions) expect(solution.answer).not.toBeNull();

    // The continuations are journaled calls: resumed, the run is answered from the journal alone.
    const results = await readFile(path.join(out, 'results.jsonl'), 'utf8');
    const resumed = await run(args, true);
    expect(resumed.calls.issued).toBe(0);
    expect(resumed.calls.reused).toBe(calls.length);
    expect(await readFile(path.join(out, 'results.jsonl'), 'utf8')).toBe(results);
  });

  test('a request that ends with the assistant message asks the server to continue it; any other does not', () => {
    const plain = additionRequest('http://127.0.0.1:1/v1');
    const continued = { ...plain, messages: [...plain.messages, { role: 'assistant' as const, content: 'So far: 1 + 1 = 2.\n\nFinal answer:' }] };
    expect(requestHead(continued, { dialect: 'chat', stream: false })).toMatchObject({ continue_final_message: true, add_generation_prompt: false });
    expect(requestHead(plain, { dialect: 'chat', stream: false })).not.toHaveProperty('continue_final_message');
    // OpenAI's reasoning models know neither field.
    expect(requestHead(continued, { dialect: 'openai-reasoning', stream: false })).not.toHaveProperty('continue_final_message');
  });
});

describe.each(['reasoning_content', 'think-tags'] as const)('budget forcing on a reasoning model (%s)', (dialect) => {
  let sim: SimServer;
  beforeAll(async () => {
    const problems = PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer }));
    sim = await startSimServer({ problems, seed: 4, roles: SIM_ROLES, reasoning: dialect, outputTokens: 6000 });
  });
  afterAll(async () => {
    await sim.close();
  });

  test('a reasoning cut at the budget goes back inline and is closed; the reply keeps it apart and has an answer', async ({ dir }) => {
    const input = await writeProblems(dir, PROBLEMS);
    const out = path.join(dir, 'out');
    await run([...LONG, '--input-file', input, '--output-file', out, '--base-url', sim.url, '--model-name', 'tmas-sim', '--no-stream']);
    const pairs = forcedCalls(await readJournal(out));
    const messages = (await readLog(out)).map((envelope) => envelope.message);
    // The thinking (half of a 6000-token reply) passes a 2048-token budget: some replies are cut inside it.
    const inThought = pairs.filter(({ cut }) => cut.response.content === '' || cut.response.content.startsWith('<think>'));
    expect(inThought.length).toBeGreaterThan(0);
    for (const { cut, forced } of inThought) {
      const thought = (cut.response.reasoning ?? cut.response.content.slice('<think>'.length)).replace(/^\n+|\n+$/g, '');
      // Inline, as the chat template renders the latest turn's reasoning, and closed: the cue that ends the thinking.
      expect(forced.request.messages.at(-1)).toEqual({ role: 'assistant', content: `<think>\n${thought}\n</think>\n\n` });
      if (cut.role !== 'solver') continue;
      const [reply] = ofType(messages, 'solver.completed', cut.problem, cut.iteration).filter((m) => m.call.key === cut.key);
      // The answer is what followed the thinking; the reasoning stays apart from it.
      expect(reply?.text).toBe(forced.response.content);
      expect(reply?.text).not.toContain('<think>');
      expect(reply?.answer).not.toBeNull();
    }
  });
});

describe('budget forcing when the continuation comes back empty', () => {
  test('it is asked again, 3 times at most, from the first retry on with the final-answer cue after the thinking; the reply counts every call', async ({ dir }) => {
    const problems = PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer }));
    const sim = await startSimServer({ problems, seed: 4, roles: SIM_ROLES, reasoning: true, outputTokens: 6000 });
    // In front of it, a server that never continues p1's cut replies, and the others' only from the third time asked.
    const asked = new Map<string, number>();
    const proxy = await startProxy(sim.url, (url, body, res) => {
      if (!url.endsWith('/chat/completions')) return false;
      const request = JSON.parse(body) as { continue_final_message?: boolean; messages: Array<{ content: string }> };
      if (request.continue_final_message !== true) return false;
      const conversation = JSON.stringify(request.messages.map((m) => m.content)).replace(/Final answer:"\]$/, '"]');
      const count = (asked.get(conversation) ?? 0) + 1;
      asked.set(conversation, count);
      if (count > 2 && !conversation.includes('Compute 2 times 3')) return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('', { model: 'tmas-sim', usage: { prompt_tokens: 9000, completion_tokens: 0, total_tokens: 9000 } }));
      return true;
    });
    try {
      const input = await writeProblems(dir, PROBLEMS);
      const out = path.join(dir, 'out');
      await run([...LONG, '--input-file', input, '--output-file', out, '--base-url', proxy.url, '--model-name', 'tmas-sim', '--no-stream']);
      const calls = await readJournal(out);
      const pairs = forcedCalls(calls);
      const replies = ofType((await readLog(out)).map((envelope) => envelope.message), 'solver.completed');
      const retried = { p1: 0, others: 0 };
      for (const reply of replies) {
        const cut = calls.find((c) => c.key === reply.call.key);
        if (cut?.response.content !== '' || cut.response.finishReason !== 'length') continue;
        const tries = pairs.filter((pair) => pair.cut.key === cut.key).map((pair) => pair.forced);
        tries.sort((a, b) => a.timings.startedAt - b.timings.startedAt);
        const last = tries.at(-1) as CallRecord;
        const thought = `<think>\n${(cut.response.reasoning ?? '').replace(/^\n+|\n+$/g, '')}\n</think>\n\n`;
        // The first try ends the thinking; each retry adds the final-answer cue, with a seed of its own.
        expect(tries.map((t) => t.request.messages.at(-1)?.content)).toEqual(tries.map((_, k) => (k === 0 ? thought : `${thought}Final answer:`)));
        expect(new Set(tries.map((t) => t.request.seed)).size).toBe(tries.length);
        // Asked again only while empty.
        for (const t of tries.slice(0, -1)) expect(t.response.content).toBe('');
        expect(reply.call.usage.promptTokens).toBe(cut.usage.promptTokens + tries.reduce((sum, t) => sum + t.usage.promptTokens, 0));
        if (reply.problem === 'p1') {
          // Never continued: asked 3 times again, then the reply is the cut one with its cue, and no answer.
          expect(tries).toHaveLength(4);
          expect(reply.text).toBe('Final answer:');
          expect(reply.answer).toBeNull();
          retried.p1++;
        } else {
          expect(last.response.content).not.toBe('');
          expect(reply.text).toBe(tries.length === 1 ? last.response.content : `Final answer: ${last.response.content}`);
          expect(reply.answer).not.toBeNull();
          if (tries.length === 3) retried.others++;
        }
      }
      expect(retried.p1).toBeGreaterThan(0);
      expect(retried.others).toBeGreaterThan(0);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
      await sim.close();
    }
  });
});
