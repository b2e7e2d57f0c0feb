/**
 * The ceiling for the overhead benchmark: the same requests as a tmas run,
 * read back from its call journal, sent straight through the `openai` client
 * at the same concurrency, with no actors, no pool and no store.
 */
import OpenAI from 'openai';
import type { HttpTransport } from '../../src/gateway/request/http-transport.ts';
import path from 'node:path';
import { Store, type CallRecord } from '../../src/store/store.ts';

/** One request as the journal recorded it. */
export type JournaledRequest = CallRecord['request'];

/** Every request in a finished run's journal. */
export async function readJournaledRequests(outputDir: string): Promise<JournaledRequest[]> {
  const store = await Store.open(path.resolve(outputDir));
  try {
    const requests: JournaledRequest[] = [];
    for await (const call of store.callRecords()) requests.push(call.request);
    return requests;
  } finally {
    await store.close();
  }
}

/** Sends every request once, `concurrency` at a time, with the client's default fetch unless one is given; resolves with wall and CPU milliseconds. */
export async function sendRaw(
  baseUrl: string,
  requests: JournaledRequest[],
  concurrency: number,
  fetch?: HttpTransport['fetch'],
): Promise<{ wallMs: number; cpuMs: number; calls: number }> {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'bench', maxRetries: 0, timeout: 600_000, ...(fetch === undefined ? {} : { fetch }) });
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const lane = async (): Promise<void> => {
    for (let index = next++; index < requests.length; index = next++) {
      const request = requests[index];
      if (!request) continue;
      const response = await client.chat.completions.create({
        model: request.model,
        messages: request.messages as OpenAI.ChatCompletionMessageParam[],
        max_tokens: request.maxTokens,
        seed: request.seed,
        ...(request.temperature === null ? {} : { temperature: request.temperature }),
      });
      // Read what the gateway reads, so both sides parse the same body.
      void response.choices[0]?.message.content;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, lane));
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000, calls: requests.length };
}
