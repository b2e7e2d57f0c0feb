/**
 * The simulated model, through the real `openai` client over real sockets,
 * with prompts built by the role definitions themselves: so these tests pin the
 * wire contract between machines/*.role.ts and src/sim.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, test as base } from 'vitest';
import { experiencePrompt, parseExperience } from '../../machines/strategies/tmas/experience.role.ts';
import { guidelinePrompt, parseGuidelines } from '../../machines/strategies/tmas/guideline.role.ts';
import type { PromptSpec } from '../../machines/prompt.ts';
import { parseScore } from '../../machines/reply.ts';
import { solutionPrompt } from '../../machines/strategies/tmas/solution.role.ts';
import { parseSummary, summaryPrompt } from '../../machines/roles/summary.role.ts';
import { verificationPrompt } from '../../machines/roles/verification.role.ts';
import { UserError } from '../../src/kernel/errors.ts';
import { extractAnswer, gradeAnswer } from '../../src/grader/index.ts';
import type { CandidateSource, ExperienceRecord, GuidelineRecord, MessageOf, Rollout, Verification } from '../../src/kernel/protocol.ts';
import { runSimServerCommand } from '../../src/cli/tools/sim-server.command.ts';
import { FAULT_KINDS, parseFaults, startSimServer, type FaultKind, type SimOptions, type SimServer } from '../../src/sim/server.ts';
import { systemText, userText } from '../../workers/prompt-template.ts';

interface Problem {
  id: string;
  question: string;
  answer: string;
}

/** Answers in several shapes, so distractors of each shape get exercised. */
function answerFor(i: number): string {
  switch (i % 5) {
    case 0:
      return `\\frac{${i + 1}}{${2 * i + 3}}`;
    case 1:
      return String(3 * i + 2);
    case 2:
      return String(-i);
    case 3:
      return `${i}.5`;
    default:
      return String(i * i);
  }
}

const PROBLEMS: Problem[] = Array.from({ length: 200 }, (_, i) => ({
  id: `p${i}`,
  question: `Problem ${i}: let S be the set of integers n with 1 <= n <= ${100 + i} such that n^2 + ${i} is prime. Find the required value.`,
  answer: answerFor(i),
}));
const FIRST = PROBLEMS[1] as Problem;
const SEED = 7;

interface Sim {
  server: SimServer;
  client: OpenAI;
}

/** Starts servers on port 0 and closes every one of them after the test. */
const test = base.extend<{ sims: { start(options?: Partial<SimOptions>, clientTimeoutMs?: number): Promise<Sim> } }>({
  // vitest reads a fixture's dependencies from this pattern, so it stays even when empty.
  sims: async ({}, use) => {
    const started: SimServer[] = [];
    await use({
      async start(options = {}, clientTimeoutMs) {
        const server = await startSimServer({ problems: PROBLEMS, seed: SEED, ...options });
        started.push(server);
        const client = new OpenAI({ baseURL: server.url, apiKey: 'sim', maxRetries: 0, ...(clientTimeoutMs ? { timeout: clientTimeoutMs } : {}) });
        return { server, client };
      },
    });
    await Promise.all(started.map((server) => server.close()));
  },
});

const base_ = { run: 'r', iteration: 1, correlation: 'c' };

function solutionRequest(
  problem: Problem,
  source: CandidateSource,
  extra: { rollouts?: Rollout[]; experience?: ExperienceRecord[]; guidelines?: GuidelineRecord[] } = {},
): MessageOf<'solution.requested'> {
  return {
    type: 'solution.requested',
    ...base_,
    problem: problem.id,
    candidate: 0,
    source,
    question: problem.question,
    rollouts: extra.rollouts ?? [],
    experience: extra.experience ?? [],
    guidelines: extra.guidelines ?? [],
  };
}

function verificationRequest(problem: Problem, solution: string): MessageOf<'verification.requested'> {
  return { type: 'verification.requested', ...base_, problem: problem.id, candidate: 0, index: 0, question: problem.question, solution };
}

function rollout(candidate: number, answer: string | null, score: number | null, text = ''): Rollout {
  return { candidate, answer, score, summary: 'checked', text };
}

type Params = { seed?: number; max_tokens?: number; temperature?: number };

async function ask(client: OpenAI, spec: PromptSpec, params: Params = {}) {
  const response = await client.chat.completions.create({
    model: 'tmas-sim',
    messages: [
      { role: 'system', content: systemText(spec.system) },
      { role: 'user', content: userText(spec.parts) },
    ],
    seed: params.seed ?? 1,
    ...(params.max_tokens === undefined ? {} : { max_tokens: params.max_tokens }),
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
  });
  const choice = response.choices[0];
  if (!choice) throw new Error('no choice');
  return { content: choice.message.content ?? '', finish: choice.finish_reason, usage: response.usage, message: choice.message };
}

function isCorrect(content: string, problem: Problem): boolean {
  return gradeAnswer(extractAnswer(content), problem.answer).equal;
}

const options = { proof: false };

describe('routes', () => {
  test('GET /v1/models lists the model', async ({ sims }) => {
    const { client } = await sims.start({ model: 'tmas-sim-x' });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['tmas-sim-x']);
  });

  test('an unknown route is a 404 JSON error', async ({ sims }) => {
    const { server } = await sims.start();
    const response = await fetch(`${server.url}/embeddings`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  test('unknown roles are rejected with 400, naming what is expected; a streamed reply carries the same text as a whole one', async ({ sims }) => {
    const { client } = await sims.start();
    const user = `<problem>\n${FIRST.question}\n</problem>`;
    await expect(
      client.chat.completions.create({ model: 'm', messages: [{ role: 'system', content: 'You are the Astrologer agent.' }, { role: 'user', content: user }] }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('Solution, Verification, Summary, Experience, Guideline') });
    const spec = solutionPrompt(solutionRequest(FIRST, 'normal'), options);
    const messages = [
      { role: 'system' as const, content: systemText(spec.system) },
      { role: 'user' as const, content: user },
    ];
    const whole = await client.chat.completions.create({ model: 'm', seed: 3, messages });
    const stream = await client.chat.completions.create({ model: 'm', seed: 3, messages, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let finish: string | null = null;
    let usage: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(whole.choices[0]?.message.content);
    expect(finish).toBe(whole.choices[0]?.finish_reason);
    expect(usage).toEqual(whole.usage);
  });

  test('the roles it answers are the ones it is started with: a role named there replies in the format given, counted under its name', async ({ sims }) => {
    const spec = verificationPrompt(verificationRequest(FIRST, `The answer is \\boxed{${FIRST.answer}}.`), options);
    const astrologer = { ...spec, system: systemText(spec.system).replace(/You are the Verification agent/i, 'You are the Astrologer agent') };
    expect(astrologer.system).not.toBe(spec.system);
    const { client, server } = await sims.start({ roles: new Map([['astrologer', 'verification']]) });
    const reply = await ask(client, astrologer);
    expect(parseScore(reply.content)).not.toBeNull();
    expect(server.stats().byRole).toEqual({ astrologer: 1 });
    // Started with that table only, it no longer answers the role named after the format.
    await expect(ask(client, spec)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('Role one of Astrologer') });
  });
});

describe('each role answers in the format its own parser accepts', () => {
  test('solution: plain, exploit and explore prompts end in \\boxed{}', async ({ sims }) => {
    const { client } = await sims.start();
    const plain = await ask(client, solutionPrompt(solutionRequest(FIRST, 'normal'), options));
    expect(extractAnswer(plain.content)).not.toBeNull();
    expect(plain.finish).toBe('stop');
    expect(plain.usage?.completion_tokens).toBeGreaterThan(100);
    expect(plain.usage?.total_tokens).toBe((plain.usage?.prompt_tokens ?? 0) + (plain.usage?.completion_tokens ?? 0));

    const exploit = await ask(
      client,
      solutionPrompt(solutionRequest(FIRST, 'experience', { rollouts: [rollout(0, FIRST.answer, 0.9, plain.content)] }), options),
    );
    expect(extractAnswer(exploit.content)).not.toBeNull();

    const explore = await ask(client, solutionPrompt(solutionRequest(FIRST, 'guideline'), options));
    expect(explore.content.split('\n')[0]).toMatch(/^Strategy: \S/);
    expect(extractAnswer(explore.content)).not.toBeNull();
  });

  test('verification ends with a score that parseScore reads', async ({ sims }) => {
    const { client } = await sims.start();
    const reply = await ask(client, verificationPrompt(verificationRequest(FIRST, `Easy.\n\\boxed{${FIRST.answer}}`), options));
    const score = parseScore(reply.content);
    expect(score).not.toBeNull();
    expect(reply.content.trim().split('\n').at(-1)).toMatch(/^SCORE: [01]\.\d\d$/);
  });

  test('summary starts with SUMMARY: and says whether to trust the answer', async ({ sims }) => {
    const { client } = await sims.start();
    const verifications: Verification[] = [0.9, 0.8, 0.1].map((score, index) => ({ index, score, analysis: `ok\nSCORE: ${score}` }));
    const request: MessageOf<'summary.requested'> = {
      type: 'summary.requested',
      ...base_,
      problem: FIRST.id,
      candidate: 0,
      question: FIRST.question,
      solution: `work\n\\boxed{${FIRST.answer}}`,
      verifications,
    };
    const reply = await ask(client, summaryPrompt(request, options));
    expect(reply.content.startsWith('SUMMARY:')).toBe(true);
    expect(parseSummary(reply.content)).toMatch(/can be trusted/);
  });

  test('experience: conclusions for well-scored rollouts, pitfalls for poorly scored ones', async ({ sims }) => {
    const { client } = await sims.start();
    const request: MessageOf<'experience.requested'> = {
      type: 'experience.requested',
      ...base_,
      problem: FIRST.id,
      question: FIRST.question,
      rollouts: [rollout(0, FIRST.answer, 0.9), rollout(1, '999999', 0.1), rollout(2, null, null)],
      bank: [],
    };
    const reply = await ask(client, experiencePrompt(request, options));
    const records = parseExperience(reply.content, 1, 'k');
    expect(records.map((r) => [r.kind, r.provenance.candidate])).toEqual([
      ['conclusion', 0],
      ['pitfall', 1],
    ]);
    expect(records[1]?.text).toContain('999999');

    // What the bank already holds is not repeated.
    const again = await ask(client, experiencePrompt({ ...request, bank: records }, options));
    expect(parseExperience(again.content, 2, 'k')).toEqual([]);
  });

  test('guideline: one record per strategy with an outcome', async ({ sims }) => {
    const { client } = await sims.start();
    const explore = await ask(client, solutionPrompt(solutionRequest(FIRST, 'guideline'), options));
    const strategy = explore.content.split('\n')[0]?.replace('Strategy: ', '') ?? '';
    const request: MessageOf<'guideline.requested'> = {
      type: 'guideline.requested',
      ...base_,
      problem: FIRST.id,
      question: FIRST.question,
      rollouts: [rollout(0, '1', 0.9, 'plain work'), rollout(1, '2', 0.2, explore.content), rollout(2, '3', 0.5, 'plain work')],
      bank: [],
    };
    const records = parseGuidelines((await ask(client, guidelinePrompt(request, options))).content, 1, 'k');
    expect(records).toHaveLength(2);
    expect(records.map((r) => r.strategy)).toContain(strategy);
    expect(records.find((r) => r.strategy === strategy)?.outcome).toMatch(/candidate 1 answered 2 \(score 0\.20\)/);
  });
});

describe('determinism', () => {
  test('the same request gives the same content, on the same or another server', async ({ sims }) => {
    const a = await sims.start();
    const b = await sims.start();
    const spec = solutionPrompt(solutionRequest(FIRST, 'normal'), options);
    const first = await ask(a.client, spec, { seed: 5 });
    expect((await ask(a.client, spec, { seed: 5 })).content).toBe(first.content);
    expect((await ask(b.client, spec, { seed: 5 })).content).toBe(first.content);
    // max_tokens only cuts; it does not change what is generated.
    const cut = await ask(a.client, spec, { seed: 5, max_tokens: 20 });
    expect(cut.finish).toBe('length');
    expect(cut.content.length).toBeLessThanOrEqual(80);
    expect(first.content.startsWith(cut.content)).toBe(true);
  });

  test('different seeds give different verifications of one candidate', async ({ sims }) => {
    const { client } = await sims.start();
    const spec = verificationPrompt(verificationRequest(FIRST, `Work.\n\\boxed{${FIRST.answer}}`), options);
    const replies = await Promise.all(Array.from({ length: 8 }, (_, seed) => ask(client, spec, { seed })));
    expect(new Set(replies.map((r) => r.content)).size).toBe(8);
    expect(new Set(replies.map((r) => parseScore(r.content))).size).toBeGreaterThan(4);
  });

  test('reasoning_content is extra: the content is unchanged', async ({ sims }) => {
    const plain = await sims.start();
    const reasoning = await sims.start({ reasoning: true });
    const spec = solutionPrompt(solutionRequest(FIRST, 'normal'), options);
    const without = await ask(plain.client, spec);
    const withReasoning = await ask(reasoning.client, spec);
    expect(withReasoning.content).toBe(without.content);
    const thinking = (withReasoning.message as { reasoning_content?: string }).reasoning_content;
    expect(thinking?.length).toBeGreaterThan(50);
  });
});

describe('the accuracy model shows the loop dynamics', () => {
  test('exploit prompts carrying a true conclusion are right more often than plain prompts, false ones less', async ({ sims }) => {
    const { client } = await sims.start();
    let plain = 0;
    let withTrue = 0;
    let withFalse = 0;
    // 100 problems, 200 draws of each kind (the simulator's draws are seeded: the same figures every run). Plain, true
    // and false are right 46%, 70.5% and 48.5% of the time (47%, 67% and 44% over all 200 problems, at twice the
    // calls): the two differences clear their bounds by 14.5 and 7 points, as by 10 and 8 over 200.
    const sample = PROBLEMS.slice(0, 100);
    await Promise.all(
      sample.map(async (problem) => {
        const request = (rollouts: Rollout[]): MessageOf<'experience.requested'> => ({
          type: 'experience.requested',
          ...base_,
          problem: problem.id,
          question: problem.question,
          rollouts,
          bank: [],
        });
        const truthful = parseExperience((await ask(client, experiencePrompt(request([rollout(0, problem.answer, 0.9)]), options))).content, 0, 'k');
        const wrongAnswer = extractAnswer((await ask(client, solutionPrompt(solutionRequest(problem, 'normal'), options), { seed: 99 })).content);
        const misleading = gradeAnswer(wrongAnswer, problem.answer).equal
          ? []
          : parseExperience((await ask(client, experiencePrompt(request([rollout(0, wrongAnswer, 0.9)]), options))).content, 0, 'k');
        for (const seed of [1, 2]) {
          if (isCorrect((await ask(client, solutionPrompt(solutionRequest(problem, 'normal'), options), { seed })).content, problem)) plain++;
          const exploitTrue = solutionPrompt(solutionRequest(problem, 'experience', { experience: truthful }), options);
          if (isCorrect((await ask(client, exploitTrue, { seed })).content, problem)) withTrue++;
          const exploitFalse = solutionPrompt(solutionRequest(problem, 'experience', { experience: misleading }), options);
          if (isCorrect((await ask(client, exploitFalse, { seed })).content, problem)) withFalse++;
        }
      }),
    );
    const draws = sample.length * 2;
    // Base accuracy is about one half; a true conclusion adds about 2 logits, a false one takes about 0.6 away.
    expect(plain / draws).toBeGreaterThan(0.25);
    expect(plain / draws).toBeLessThan(0.75);
    expect(withTrue - plain).toBeGreaterThan(0.1 * draws);
    expect(withTrue - withFalse).toBeGreaterThan(0.15 * draws);
  });

  test('the verifier agrees with the truth 65-95% of the time', async ({ sims }) => {
    const { client } = await sims.start();
    let agree = 0;
    let total = 0;
    await Promise.all(
      PROBLEMS.slice(0, 100).map(async (problem) => {
        const solution = (await ask(client, solutionPrompt(solutionRequest(problem, 'normal'), options))).content;
        const truth = isCorrect(solution, problem);
        for (const seed of [1, 2, 3, 4]) {
          const score = parseScore((await ask(client, verificationPrompt(verificationRequest(problem, solution), options), { seed })).content);
          total++;
          if (score !== null && score >= 0.5 === truth) agree++;
        }
      }),
    );
    expect(agree / total).toBeGreaterThanOrEqual(0.65);
    expect(agree / total).toBeLessThanOrEqual(0.95);
  });

  test('an unknown problem still gets a well-formed answer, and is counted', async ({ sims }) => {
    const { client, server } = await sims.start();
    const stranger = { id: 'x', question: 'What is the airspeed of an unladen swallow?', answer: '11' };
    const reply = await ask(client, solutionPrompt(solutionRequest(stranger, 'normal'), options));
    expect(extractAnswer(reply.content)).not.toBeNull();
    expect(server.stats().unknownProblems).toBe(1);
    expect(server.stats().byRole['solution']).toBe(1);
  });

  test('long outputs are cheap and still end in \\boxed{}', async ({ sims }) => {
    const { client } = await sims.start({ outputTokens: 130_000 });
    const reply = await ask(client, solutionPrompt(solutionRequest(FIRST, 'normal'), options));
    expect(reply.usage?.completion_tokens).toBeGreaterThan(0.65 * 130_000);
    expect(extractAnswer(reply.content)).not.toBeNull();
  });
});

describe('streaming', () => {
  test('a long reply streamed to a reader that falls behind leaves no listeners piling up on the response', async ({ sims }) => {
    const { server } = await sims.start({ outputTokens: 130_000 });
    const spec = solutionPrompt(solutionRequest(FIRST, 'normal'), options);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const response = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'tmas-sim', stream: true, seed: 1, messages: [{ role: 'system', content: systemText(spec.system) }, { role: 'user', content: userText(spec.parts) }] }),
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let bytes = 0;
      // A reader slower than the server, so that the server's writes wait for the socket to drain again and again.
      for (let read = 0; ; read++) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (read % 8 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      }
      expect(bytes).toBeGreaterThan(1_000_000);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });
});

describe('faults', () => {
  const spec = solutionPrompt(solutionRequest(FIRST, 'normal'), options);

  /** What attempt 1 looks like at rate 1: the error it throws, or the damaged reply. */
  async function expectFault(kind: FaultKind, sim: Sim): Promise<void> {
    const attempt = ask(sim.client, spec);
    switch (kind) {
      case '429':
      case '500':
      case '503':
        await expect(attempt).rejects.toMatchObject({ status: Number(kind) });
        break;
      case 'context':
        await expect(attempt).rejects.toMatchObject({ status: 400, code: 'context_length_exceeded', message: expect.stringContaining("This model's maximum context length is") });
        break;
      case 'hang':
        await expect(attempt).rejects.toThrow(/timed out/i);
        break;
      case 'reset':
      case 'malformed':
        await expect(attempt).rejects.toThrow();
        break;
      case 'length':
        expect((await attempt).finish).toBe('length');
        break;
      case 'empty':
        expect((await attempt).content).toBe('');
        break;
    }
  }

  function isFaulty(kind: FaultKind, reply: { content: string; finish: string }): boolean {
    return (kind === 'length' && reply.finish === 'length') || (kind === 'empty' && reply.content === '');
  }

  // `stall` holds a body half sent, which only a client with an idle limit gives up on: test/gateway/servers.test.ts checks it through the gateway.
  test.for(FAULT_KINDS.filter((kind) => kind !== 'stall'))('%s: injected at rate 1, and a retry at rate 0.5 gets the fault-free reply', async (kind, { sims }) => {
    const timeout = kind === 'hang' ? 300 : undefined;
    const always = await sims.start({ faults: { [kind]: 1 } }, timeout);
    await expectFault(kind, always);
    expect(always.server.stats().faults[kind]).toBe(1);

    // Find a request whose first attempt fails, then retry exactly that request.
    const flaky = await sims.start({ faults: { [kind]: 0.5 } }, timeout);
    const attemptOnce = (seed: number) => ask(flaky.client, spec, { seed }).catch(() => null);
    let seed = 0;
    for (let outcome = await attemptOnce(seed); outcome && !isFaulty(kind, outcome) && seed < 50; outcome = await attemptOnce(seed)) seed++;
    let reply: { content: string; finish: string } | null = null;
    for (let attempt = 2; attempt <= 30 && reply === null; attempt++) {
      const outcome = await attemptOnce(seed);
      if (outcome && !isFaulty(kind, outcome)) reply = outcome;
    }
    const clean = await ask((await sims.start()).client, spec, { seed });
    expect(reply?.content).toBe(clean.content);
    expect(reply?.finish).toBe('stop');
  });

  test('429s carry Retry-After: 1 on about half of them', async ({ sims }) => {
    const { server } = await sims.start({ faults: { '429': 1 } });
    const headers = await Promise.all(
      Array.from({ length: 40 }, async (_, seed) => {
        const response = await fetch(`${server.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'm', seed, messages: [{ role: 'system', content: systemText(spec.system) }, { role: 'user', content: 'x' }] }),
        });
        expect(response.status).toBe(429);
        await response.arrayBuffer();
        return response.headers.get('retry-after');
      }),
    );
    const withHeader = headers.filter((h) => h === '1').length;
    expect(withHeader).toBeGreaterThan(5);
    expect(withHeader).toBeLessThan(35);
  });

  test('close() ends hanging requests', async ({ sims }) => {
    const { client, server } = await sims.start({ faults: { hang: 1 } });
    const pending = ask(client, spec);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.close();
    await expect(pending).rejects.toThrow();
  });

  test('parseFaults reads the CLI syntax and names a bad entry', () => {
    expect(parseFaults('429=0.05,503=0.02, reset=0.02')).toEqual({ '429': 0.05, '503': 0.02, reset: 0.02 });
    expect(parseFaults('')).toEqual({});
    for (const [spec, entry] of [
      ['429=0.05,oops=0.1', 'oops=0.1'],
      ['429=2', '429=2'],
      ['503', '503'],
      ['hang=0.1,hang=0.2', 'hang=0.2'],
    ] as const) {
      let thrown: unknown;
      try {
        parseFaults(spec);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UserError);
      expect(thrown).toMatchObject({ code: 'TMAS_USAGE', message: expect.stringContaining(`"${entry}"`) });
    }
    expect(() => parseFaults('429=0.6,500=0.6')).toThrow(/more than 1/);
  });
});

describe('latency and the request log', () => {
  test('a configured latency (median 50 ms) delays the reply', async ({ sims }) => {
    const { client } = await sims.start({ latency: { medianMs: 50, p99Ms: 200 } });
    const spec = solutionPrompt(solutionRequest(FIRST, 'normal'), options);
    const started = performance.now();
    await ask(client, spec);
    expect(performance.now() - started).toBeGreaterThanOrEqual(10);
  });

  test('the request log has one JSON line per chat request', async ({ sims }) => {
    const dir = await mkdtemp(join(tmpdir(), 'tmas-sim-'));
    try {
      const file = join(dir, 'requests.jsonl');
      const { client, server } = await sims.start({ requestLog: file, faults: { '503': 0.5 } });
      const spec = solutionPrompt(solutionRequest(FIRST, 'normal'), options);
      for (let i = 0; i < 6; i++) await ask(client, spec, { seed: i }).catch(() => undefined);
      await server.close();
      const lines = (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toHaveLength(6);
      for (const line of lines) {
        expect(line).toMatchObject({ role: 'solution', problem: FIRST.id, key: expect.stringMatching(/^[0-9a-f]{64}$/) });
        expect([line['status'], line['fault']]).toEqual(line['status'] === 200 ? [200, null] : [503, '503']);
      }
      expect(lines.filter((line) => line['status'] === 503).length).toBe(server.stats().faults['503']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the sim-server command', () => {
  const flags = { port: 0, host: '127.0.0.1', seed: 3, latencyMedianMs: 0, latencyP99Ms: 0, outputTokens: 100, reasoning: false };

  test('loads a problem file, listens and says it is a simulated model', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tmas-sim-'));
    const lines: string[] = [];
    try {
      const file = join(dir, 'problems.jsonl');
      await writeFile(file, `${JSON.stringify({ problem_id: 'a', question: FIRST.question, answer: FIRST.answer })}\n`);
      const server = await runSimServerCommand({ ...flags, problems: file, faults: '503=0' }, { stdout: (line) => lines.push(line) });
      try {
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(server.url);
        expect(lines[0]).toContain('(simulated model, not a real LLM)');
        const client = new OpenAI({ baseURL: server.url, apiKey: 'sim', maxRetries: 0 });
        await ask(client, solutionPrompt(solutionRequest(FIRST, 'normal'), options));
        expect(server.stats().unknownProblems).toBe(0);
      } finally {
        await server.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a bad fault spec is a usage error before anything starts', async () => {
    await expect(runSimServerCommand({ ...flags, problems: 'unused.jsonl', faults: 'teapot=1' }, { stdout: () => undefined })).rejects.toMatchObject({
      code: 'TMAS_USAGE',
    });
  });
});
