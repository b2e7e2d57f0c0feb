/**
 * A conversation rendered through a model's chat template as transformers'
 * apply_chat_template renders it, and so as vLLM and SGLang build the prompt
 * they count and send to the model: `messages`, `tools` and `documents`
 * (None when not given: `tools is defined` is true, `tools is none` too),
 * `add_generation_prompt` (false unless asked), the tokenizer's special tokens
 * (`bos_token`, `eos_token`, …) and any extra keyword (`enable_thinking`,
 * `reasoning_effort`, `thinking`: a server's `chat_template_kwargs`).
 */
import { renderTemplate, TemplateRenderError } from './prompt-template.ts';
import type { TemplateValue } from './tasks.ts';

export interface ChatTemplateInput {
  messages: TemplateValue[];
  tools?: TemplateValue[] | null;
  documents?: TemplateValue[] | null;
  addGenerationPrompt?: boolean;
  /** The tokenizer's special tokens by name (bos_token, eos_token, unk_token, pad_token, …). */
  specialTokens?: Record<string, string>;
  /** Extra keywords, which transformers passes last and so override the rest. */
  extra?: Record<string, TemplateValue>;
}

/** The keywords apply_chat_template passes itself. */
const OWN_KEYWORDS = new Set(['messages', 'tools', 'documents', 'add_generation_prompt']);

/** `template` rendered over `input` as transformers renders a chat template. Throws a TemplateRenderError saying what failed. */
export function renderChatTemplate(template: string, input: ChatTemplateInput): string {
  // transformers passes these by name and the extras after them: Python refuses a keyword given twice.
  const twice = Object.keys({ ...input.specialTokens, ...input.extra }).find((name) => OWN_KEYWORDS.has(name));
  if (twice !== undefined) throw new TemplateRenderError(`jinja2.environment.Template.render() got multiple values for keyword argument '${twice}'`);
  const variables: Record<string, TemplateValue> = {
    messages: input.messages,
    tools: input.tools ?? null,
    documents: input.documents ?? null,
    add_generation_prompt: input.addGenerationPrompt ?? false,
    ...input.specialTokens,
    ...input.extra,
  };
  return renderTemplate(template, variables, 'transformers');
}
