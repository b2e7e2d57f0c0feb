/** `tmas sim-server`: its options, and the command that serves the simulated model until Ctrl-C. */
import type { Command } from 'commander';
import { decimal, integer } from '../settings/parsers.ts';
import type { CliIo } from './cli-io.ts';

/** Adds `tmas sim-server` to the program. */
export function defineSimServerCommand(program: Command, io: CliIo): void {
  program
    .command('sim-server')
    .description('serve the simulated model on its own (an OpenAI-compatible HTTP server; not a real LLM)')
    .requiredOption('--problems <file>', 'the problems whose reference answers it knows (JSONL or CSV)')
    .option('--port <n>', 'port (0: any free port)', integer(0, 65_535), 8000)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <n>', 'seed of its answers', integer(0), 0)
    .option('--latency-median-ms <ms>', 'median latency (0: none)', decimal(0, 600_000), 0)
    .option('--latency-p99-ms <ms>', '99th percentile latency', decimal(0, 600_000), 0)
    .option('--output-tokens <n>', 'approximate tokens of a solution', integer(1), 250)
    .option('--faults <spec>', 'fault injection rates, e.g. 429=0.05,503=0.02,reset=0.02,hang=0.01,malformed=0.02,length=0.02,empty=0.01')
    .option('--reasoning [dialect]', 'also send reasoning, as reasoning models do: reasoning_content (the default), reasoning, or think-tags (inline <think>…</think>)', false)
    .option('--model <id>', 'a model it serves (repeat for several); a request for another gets vLLM\'s 404 (default: tmas-sim, and any name accepted)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--stream-tokens-per-second <n>', 'pace of streamed replies per stream (0: as fast as possible)', decimal(0, 1_000_000), 0)
    .option('--stream-chunk-tokens <n>', 'tokens per streamed chunk', integer(1, 100_000), 8)
    .option('--openai-reasoning', "refuse max_tokens and sampling fields with a 400, as OpenAI's reasoning models do", false)
    .option('--request-log <file>', 'append one JSONL line per request')
    .option('--metrics <which>', "what GET /metrics exposes: vllm (vLLM's gauges, counters and histograms), gauges (only the request and KV-cache gauges) or none (a 404, as a server without Prometheus metrics)", 'vllm')
    .option('--no-continuous-usage', 'with --capacity: ignore stream_options.continuous_usage_stats (usage only at the end of a stream), as TGI, llama.cpp and hosted APIs do')
    .option('--capacity', 'model one GPU server under load (continuous batching, KV cache, prefill, prefix caching): replies take the time the load gives them, report drawn output lengths, and /metrics and /sim/stats report it; replaces --latency-* and --stream-tokens-per-second', false)
    .option('--decode-tokens-per-second <n>', 'with --capacity: decode throughput D shared by all sequences (default 8000)', integer(1))
    .option('--sequence-tokens-per-second <n>', 'with --capacity: decode ceiling c of one sequence (default 100)', integer(1))
    .option('--kv-tokens <n>', 'with --capacity: KV cache capacity K in tokens, prompts plus generated (default 2000000)', integer(1))
    .option('--prefill-tokens-per-second <n>', 'with --capacity: prefill throughput P (default 50000)', integer(1))
    .option('--output-tokens-median <n>', 'with --capacity: median output length drawn per request (default 12000)', integer(1))
    .option('--output-tokens-p99 <n>', 'with --capacity: 99th percentile output length (default 60000)', integer(1))
    .option('--output-tokens-problem-spread <s>', "with --capacity: how much lengths depend on the problem: a problem's calls share a factor exp(s × z), z drawn per problem (default 0: independent)", decimal(0, 3))
    .option('--text-chars-per-token <x>', "with --capacity: pad each reply's reasoning to x characters per drawn output token, as a thinking model's text grows with its tokens (default 0: the answer's text only)", decimal(0, 100))
    .option('--time-scale <k>', 'with --capacity: simulated seconds per real second (default 1; 1000 runs a day in under 2 minutes)', decimal(0.001, 1_000_000))
    .exitOverride()
    .action(async (flags) => {
      const { runSimServerCommand } = await import('./sim-server.command.ts');
      const server = await runSimServerCommand({ ...flags, latencyMedianMs: flags.latencyMedianMs, latencyP99Ms: Math.max(flags.latencyP99Ms, flags.latencyMedianMs) }, io);
      await new Promise<void>((resolve) => {
        const stop = () => void server.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
