/**
 * The wire format between the pool client (`src/pool/pool.ts`) and the workers: the
 * input and output of every task. Types only, so that importing this file from
 * either side loads nothing.
 */

/** The js-tiktoken encodings the tokenizer worker can load. */
export type EncodingName = 'o200k_base' | 'cl100k_base' | 'p50k_base';

/** One piece of a user message; parts with a `drop` rank may be left out, lowest rank first. */
export interface FitPart {
  id: string;
  text: string;
  drop?: number;
  /** Cut to at most this many tokens (head and tail kept) before fitting; absent: kept whole. */
  maxTokens?: number;
}

/** A value a prompt template reads: JSON. */
export type TemplateValue = string | number | boolean | null | TemplateValue[] | { [key: string]: TemplateValue };

/** A value a template part may leave out when the prompt does not fit: a list item (removed from its list) or a field (removed from its object). */
export interface TemplateDrop {
  id: string;
  /** Where the value is in the variables: names of fields and positions in lists. */
  path: Array<string | number>;
  /** Drop rank: lowest first, among the parts' ranks too. */
  drop: number;
}

/**
 * How a template's block tags treat the whitespace around them
 * (workers/template-whitespace.ts): `jinja2`, as Python's jinja2 renders by
 * default (a user's template); `trimmed`, with trim_blocks and lstrip_blocks
 * on (the built-in templates, written so).
 */
export type TemplateWhitespace = 'jinja2' | 'trimmed';

/** A piece of a user message that is a Jinja template rendered over variables (workers/prompt-template.ts). */
export interface TemplateFitPart {
  id: string;
  /** The template's source. */
  template: string;
  /** How it renders; absent: `trimmed`. */
  whitespace?: TemplateWhitespace;
  variables: Record<string, TemplateValue>;
  drops?: TemplateDrop[];
}

/** Input of the `fit` task: a system message and the parts of the user message. */
export interface FitTask {
  encoding: string;
  /** The system message: a text, or a template whose values may be left out to fit, as a user part's (RSE's experience bank). */
  system: string | TemplateFitPart;
  parts: Array<FitPart | TemplateFitPart>;
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

/** The droppable values of a template: how many it had and kept, and the tokens of their texts (each value's strings counted alone). */
export interface FittedValues {
  values: number;
  kept: number;
  tokens: number;
  keptTokens: number;
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
