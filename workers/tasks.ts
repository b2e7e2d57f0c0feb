/**
 * The wire format between the pool client (`src/pool/pool.ts`) and the workers: the
 * input and output of every task. Types only, so that importing this file from
 * either side loads nothing. A prompt's types are the kit's too, declared once
 * in src/kernel/prompt-wire.ts; a worker imports from the kernel types alone,
 * so a worker thread loads nothing outside workers/.
 */
import type { FittedValues } from '../src/kernel/protocol.ts';
import type { PromptPart, PromptSpec, TemplatePromptPart } from '../src/kernel/prompt-wire.ts';

export type { FittedValues };
export type { TemplateDrop, TemplateShorten, TemplateValue, TemplateWhitespace } from '../src/kernel/prompt-wire.ts';

/** The js-tiktoken encodings the tokenizer worker can load. */
export type EncodingName = 'o200k_base' | 'cl100k_base' | 'p50k_base';

/** One text piece of a user message, as the fit task reads it; parts with a `drop` rank may be left out, lowest rank first. */
export type FitPart = PromptPart;

/** A piece of a user message that is a Jinja template rendered over variables (workers/prompt-template.ts). */
export type TemplateFitPart = TemplatePromptPart;

/** Input of the `fit` task: a role's prompt (its system message and the parts of its user message) and what it must fit. */
export interface FitTask extends PromptSpec {
  encoding: string;
  /** The most prompt tokens allowed (system + user, overhead included). */
  budget: number;
}

/** Output of the `fit` task. */
export interface FitOutput {
  /** The kept parts' texts joined with a blank line, in their original order. */
  user: string;
  /** Exact token count of the final prompt, per-message overhead included; may exceed the budget if nothing more could be dropped. */
  promptTokens: number;
  /** Ids of the parts left out, in the order they were dropped. */
  dropped: string[];
  /** A template part could not be rendered: what the library said (nothing is sent). */
  renderError?: string;
  /** The system message as fitted, when the task's is a template. */
  system?: string;
  /** When the task's system message is a template: its droppable values, how many were kept, and the tokens of their texts. */
  systemValues?: FittedValues;
}

/** Input of the `count` task. */
export interface CountTask {
  encoding: string;
  texts: string[];
}

/** Input of the `dedup` task: the kept bank and the new records, in the order they are considered. */
export interface DedupInput {
  existing: string[];
  incoming: string[];
  /** A new record is dropped when its Jaccard similarity to a kept record is at least this. */
  threshold: number;
  /** Words per shingle; 3 when absent. */
  shingle?: number;
}

/** Output of the `dedup` task: one flag per incoming record. */
export interface DedupOutput {
  keep: boolean[];
}

/** What the loader shim (`workers/load.mjs`) receives: which worker module, which export, and its input. */
export interface TaskEnvelope<I> {
  /** `file:` URL of the worker module. */
  file: string;
  /** Name of the exported task function. */
  name: string;
  input: I;
}
