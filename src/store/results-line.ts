/**
 * One line of `results.jsonl`: a problem's candidates at the end of an
 * iteration, spelled in snake_case like the problem input and the RL export
 * (`verification_scores`, `summary_score`, `correct_judge`). The store keeps
 * its iteration records as they were (camelCase): only the file's spelling is
 * converted, key by key, in the same order, so a line holds the same values.
 * Runs of tmas before this spelling wrote camelCase; the reader takes both.
 */
import { readFile } from 'node:fs/promises';
import type { CandidateResult } from '../kernel/protocol.ts';

/** A line of results.jsonl as a program reads it (candidates in the runtime's own shape). */
export interface ResultsLine {
  problem: string;
  iteration: number;
  simulated: boolean;
  candidates: CandidateResult[];
}

function toSnake(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function toCamel(key: string): string {
  return key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** An object with its own keys renamed, in their order; values untouched (a judge's `verdicts` has no key to rename). */
function renameKeys(value: object, rename: (key: string) => string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [rename(key), field]));
}

/** The text of one line of results.jsonl, newline included. */
export function toResultsLine(line: ResultsLine): string {
  const { problem, iteration, simulated, candidates } = line;
  return `${JSON.stringify({ problem, iteration, simulated, candidates: candidates.map((candidate) => renameKeys(candidate, toSnake)) })}\n`;
}

/** One line of results.jsonl, snake_case or the camelCase of older runs. */
export function fromResultsLine(text: string): ResultsLine {
  const parsed = JSON.parse(text) as Omit<ResultsLine, 'candidates'> & { candidates: object[] };
  return { ...parsed, candidates: parsed.candidates.map((candidate) => renameKeys(candidate, toCamel) as unknown as CandidateResult) };
}

/** Every line of a results.jsonl file, in file order. */
export async function readResults(file: string): Promise<ResultsLine[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(fromResultsLine);
}
