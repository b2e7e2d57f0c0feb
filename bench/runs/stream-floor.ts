/**
 * The least a Node.js client spends on a streamed event: the same streams
 * read by a bare client of `node:http`, its `data` events split into lines
 * and each event's JSON parsed, nothing kept but its text's length. What the
 * machine charges for a socket read, Node's HTTP parser and one JSON.parse is
 * in this figure too, so tmas's cost per event reads against it on a loaded
 * machine as on a quiet one.
 */
import http from 'node:http';

/** What the bare client spent. */
export interface StreamFloor {
  events: number;
  /** CPU of this process per event, in microseconds. */
  cpuPerEventUs: number;
}

/** The body of a streamed request for `prompt` to the simulator, with the usage tmas asks of a vLLM server. */
function requestBody(prompt: string): string {
  return JSON.stringify({ model: 'tmas-sim', stream: true, stream_options: { include_usage: true, continuous_usage_stats: true }, messages: [{ role: 'user', content: prompt }] });
}

/** Reads one stream to its end; resolves with its events. */
function readStream(url: string, prompt: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      const decoder = new TextDecoder();
      let rest = '';
      let events = 0;
      let chars = 0;
      response.on('data', (bytes: Buffer) => {
        const lines = (rest + decoder.decode(bytes, { stream: true })).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.startsWith('data: {')) continue;
          events++;
          const content: unknown = (JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: unknown } }[] }).choices?.[0]?.delta?.content;
          if (typeof content === 'string') chars += content.length;
        }
      });
      response.on('end', () => resolve(chars >= 0 ? events : 0));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(requestBody(prompt));
  });
}

/** Sends `prompts` at once as streamed requests to `url` and measures this process's CPU per event read. */
export async function measureStreamFloor(url: string, prompts: string[]): Promise<StreamFloor> {
  const cpu = process.cpuUsage();
  const counts = await Promise.all(prompts.map((prompt) => readStream(url, prompt)));
  const used = process.cpuUsage(cpu);
  const events = counts.reduce((sum, count) => sum + count, 0);
  return { events, cpuPerEventUs: (used.user + used.system) / Math.max(1, events) };
}
