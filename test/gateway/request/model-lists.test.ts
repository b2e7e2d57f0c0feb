/**
 * Model lists in the shapes servers other than vLLM answer `GET /models`
 * with: Together's bare array of model objects, windows written as text, and
 * lists in pages (Anthropic's `has_more` and `last_id`).
 * Each is a real HTTP server of this file, called by `tmas run`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { MAX_PAGES } from '../../../src/gateway/model-pages.ts';
import { chatCompletionBody, runCliInProcess, serveHttp, smallProblems, test, writeProblems } from '../../fixtures.ts';

/** A server that lists models as `listing` says, and answers every chat completion with the right answer to the first small problem. */
function serveListing(listing: unknown) {
  return serveHttp((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.endsWith('/models')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listing));
    res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('The product is \\boxed{6}.', { model: 'm' }));
  });
}

const SMALL = ['--no-proof', '--strategy', 'majority', '--samples', '2', '--max-iterations', '1', '--wait-for-server', '0'];

// Before, Together's list was "not a list of models" (TMAS_ENDPOINT): every run against its API was refused at start.
test("Together's model list, a bare array: its model is the one called without --model-name, and its context_length the window a run is held to", async ({ dir }) => {
  const server = await serveListing([{ id: 'm', object: 'model', type: 'chat', context_length: 4096 }]);
  try {
    const input = await writeProblems(dir, smallProblems(1));
    const ran = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, '--max-tokens', '4096', '--output-file', path.join(dir, 'ran')]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(server.requests()).toBeGreaterThan(1);
    const calls = server.requests();
    const refused = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, '--max-tokens', '8192', '--output-file', path.join(dir, 'refused')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/context window of 4096 tokens \(its context_length\), under the run's --max-tokens 8192: .*\[TMAS_USAGE\]/);
    // Only its GET /models: no call was sent.
    expect(server.requests()).toBe(calls + 1);
  } finally {
    await server.close();
  }
});

// Before, a window written as text was not read: the run started under a larger --max-tokens, each call refused as too long first.
test('a window written as decimal digits ("1024") is read as the number; one that is no whole number is not a window', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(1));
  for (const [listed, refused] of [['1024', true], [' 1024 ', true], ['1024.5', false], ['1e3', false], ['', false]] as const) {
    const server = await serveListing({ object: 'list', data: [{ id: 'm', object: 'model', max_model_len: listed }] });
    try {
      const run = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, '--max-tokens', '2048', '--output-file', path.join(dir, `run-${refused}-${listed.length}`)]);
      if (refused) expect(run.stderr).toMatch(/context window of 1024 tokens \(its max_model_len\), under the run's --max-tokens 2048: .*\[TMAS_USAGE\]/);
      expect(run.code, `${JSON.stringify(listed)}: ${run.stderr}`).toBe(refused ? 2 : 0);
    } finally {
      await server.close();
    }
  }
});

// Before, the client parsed the list by its content type: under text/plain it was "not a list of models" (shown whole), after a byte-order mark "Cannot reach the model endpoint".
test('a model list under text/plain, or after a byte-order mark, is read as the list it is; a web page under a 200 is still no list', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(1));
  const list = JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', max_model_len: 1024 }] });
  const answers: Array<[string, string, string]> = [
    ['text/plain', list, 'listed'],
    ['application/json', `\uFEFF${list}`, 'listed'],
    ['text/html', '<html><body>Sign in</body></html>', 'page'],
  ];
  for (const [contentType, text, expected] of answers) {
    const server = await serveHttp((req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.endsWith('/models')) return void res.writeHead(200, { 'content-type': contentType }).end(text);
      res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('The product is \\boxed{6}.', { model: 'm' }));
    });
    try {
      // The window it lists (1024) refuses --max-tokens 2048: the list was read, and no call sent.
      const run = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, '--max-tokens', '2048', '--output-file', path.join(dir, `run-${expected}-${text.length}`)]);
      expect(run.code).toBe(2);
      if (expected === 'listed') expect(run.stderr, contentType).toMatch(/context window of 1024 tokens \(its max_model_len\).*\[TMAS_USAGE\]/);
      else expect(run.stderr).toMatch(/answered GET \/models with text\/html that is not a list of models \("<html><body>Sign in<\/body><\/html>"\).*\[TMAS_ENDPOINT\]/);
      expect(server.requests()).toBe(1);
    } finally {
      await server.close();
    }
  }
});

describe("a model list in pages (Anthropic's, and OpenAI's cursor shape: has_more and last_id)", () => {
  /** Anthropic's page of `ids`, saying whether more follow. */
  const page = (ids: string[], hasMore: boolean) => ({ data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-05-14T00:00:00Z' })), has_more: hasMore, first_id: ids[0], last_id: ids.at(-1) });
  /** A server whose list is `pages` (the page after id X is the one that starts after X), its GET /models asked, and its chat route. */
  function servePages(pageAfter: (after: string | null) => unknown) {
    const asked: string[] = [];
    const server = serveHttp((req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.includes('/models')) {
        asked.push(req.url);
        const after = new URL(req.url, 'http://x').searchParams.get('after_id');
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(pageAfter(after)));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('The product is \\boxed{6}.', { model: 'claude-z' }));
    });
    return { server, asked };
  }
  const twoPages = (after: string | null) => (after === null ? page(['claude-a', 'claude-b'], true) : after === 'claude-b' ? page(['claude-z'], false) : page([], false));

  // Before: refused, "does not serve the model "claude-z"; it serves: claude-a, claude-b" (TMAS_MODEL_NOT_SERVED), one GET /models.
  test('a --model-name on the second page is served: the pages are read to the last, and the run completes', async ({ dir }) => {
    const { server: started, asked } = servePages(twoPages);
    const server = await started;
    try {
      const input = await writeProblems(dir, smallProblems(1));
      const run = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, '--model-name', 'claude-z', '--output-file', path.join(dir, 'run')]);
      expect(run.code, run.stderr).toBe(0);
      expect(asked).toEqual(['/v1/models', '/v1/models?after_id=claude-b&after=claude-b']);
    } finally {
      await server.close();
    }
  });

  // Before: the first page's first model (claude-a) was evaluated, its replies warned about as another model's.
  test('without --model-name, an endpoint whose pages list several is refused, naming them all', async ({ dir }) => {
    const { server: started } = servePages(twoPages);
    const server = await started;
    try {
      const input = await writeProblems(dir, smallProblems(1));
      const run = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, '--output-file', path.join(dir, 'run')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/serves several models, .*claude-a, claude-b, claude-z.*\[TMAS_USAGE\]/);
      expect(server.requests()).toBe(2);
    } finally {
      await server.close();
    }
  });

  test('a server that ignores the cursor (its first page again, has_more still true) is read once more, and said so', async ({ dir }) => {
    const { server: started, asked } = servePages(() => page(['claude-a'], true));
    const server = await started;
    try {
      const input = await writeProblems(dir, smallProblems(1));
      const run = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, '--model-name', 'claude-a', '--output-file', path.join(dir, 'run')]);
      expect(run.code, run.stderr).toBe(0);
      expect(asked).toHaveLength(2);
      expect(run.stderr).toMatch(/answers GET \/models in pages, read only in part: its page after "claude-a" lists no model it had not listed/);
    } finally {
      await server.close();
    }
  });

  test(`pages that never end are read ${MAX_PAGES} at most`, async ({ dir }) => {
    const { server: started, asked } = servePages((after) => page([`claude-${after === null ? 0 : Number(after.slice(7)) + 1}`], true));
    const server = await started;
    try {
      const input = await writeProblems(dir, smallProblems(1));
      const run = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, '--model-name', 'claude-3', '--output-file', path.join(dir, 'run')]);
      expect(run.code, run.stderr).toBe(0);
      expect(asked).toHaveLength(MAX_PAGES);
      expect(run.stderr).toMatch(new RegExp(`read only in part: it says more models follow after ${MAX_PAGES} pages`));
    } finally {
      await server.close();
    }
  });
});

// Before: "does not serve the model "Qwen/Qwen3-8B"; it serves: qwen. Give one of these", with nothing to say qwen is that model.
test("a --model-name that is the weights' name of a model served under another (vLLM's --served-model-name) is refused, naming the name to give", async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(1));
  for (const [root, named] of ([['Qwen/Qwen3-8B', 'Qwen/Qwen3-8B'], ['/models/Qwen3-8B', 'Qwen3-8B']] as const)) {
    const server = await serveListing({ object: 'list', data: [{ id: 'qwen', object: 'model', owned_by: 'vllm', root, max_model_len: 4096 }] });
    try {
      const run = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, '--model-name', named, '--max-tokens', '4096', '--output-file', path.join(dir, `run-${named.length}`)]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`It serves "${named}" under the name qwen (its root in GET /models: the server's --served-model-name), which a request must use. Give qwen with --model-name. [TMAS_MODEL_NOT_SERVED]`);
      expect(server.requests()).toBe(1);
    } finally {
      await server.close();
    }
  }
});

describe('a key that may complete but not list models (OpenAI\'s restricted keys without api.model.read)', () => {
  const MISSING_SCOPE = { error: { message: "You have insufficient permissions for this operation. Missing scopes: api.model.read. Check that you have the correct role in your organization (Reader, Writer, Owner) and project (Member, Owner), and if you're using a restricted API key, that it has the necessary scopes.", type: 'invalid_request_error', param: null, code: null } };
  /** A server that refuses GET /models with a 403, and answers (or, `keyRefused`, refuses with a 401) every completion. */
  const serveScoped = (keyRefused: boolean) =>
    serveHttp((req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.endsWith('/models')) return void res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify(MISSING_SCOPE));
      if (keyRefused) return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Incorrect API key provided: sk-…', type: 'invalid_request_error', code: 'invalid_api_key' } }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('The product is \\boxed{6}.', { model: 'gpt-4o' }));
    });

  // Before: refused at start as a refused key (TMAS_AUTH), though every completion would have been answered.
  test('with --model-name, a model the key completes: the run goes ahead, said once, and completes', async ({ dir }) => {
    const server = await serveScoped(false);
    try {
      const input = await writeProblems(dir, smallProblems(1));
      const run = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, '--model-name', 'gpt-4o', '--output-file', path.join(dir, 'run')]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`tmas: warning: ${server.url} refuses GET /models to this key (a key without the scope to list models, as OpenAI's restricted keys are) but completes "gpt-4o": the run calls that model as named, unchecked.`);
    } finally {
      await server.close();
    }
  });

  test('without --model-name, or a key the completion refuses too: refused at start as before (TMAS_AUTH), no call of the run sent', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    for (const [keyRefused, named] of [[false, []], [true, ['--model-name', 'gpt-4o']]] as const) {
      const server = await serveScoped(keyRefused);
      try {
        const run = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...SMALL, ...named, '--output-file', path.join(dir, `run-${keyRefused}`)]);
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(/refused GET \/models: HTTP 403: You have insufficient permissions.*\[TMAS_AUTH\]/);
        expect(run.stderr).toContain(named.length === 0 ? 'The key has no permission to list models (a restricted key): name the model to evaluate with --model-name' : 'The key has no permission to list models, nor to complete "gpt-4o"');
        // The list, and the one-token completion that tells a key refused from one without the scope.
        expect(server.requests()).toBe(named.length === 0 ? 1 : 2);
      } finally {
        await server.close();
      }
    }
  });
});
