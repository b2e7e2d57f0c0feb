/**
 * Problem files for the benchmarks: the demo problems repeated under fresh
 * ids until there are as many as a benchmark needs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_PROBLEMS } from '../../src/settings/configure/index.ts';

/** Writes `count` problems as JSONL into `dir` and returns the file. */
export async function writeBenchProblems(dir: string, count: number): Promise<string> {
  const demo = (await readFile(DEMO_PROBLEMS, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { problem_id: string; question: string; answer?: string });
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const source = demo[i % demo.length];
    if (!source) throw new Error('the demo problem set is empty');
    lines.push(JSON.stringify({ ...source, problem_id: `bench-${String(i + 1).padStart(4, '0')}` }));
  }
  const file = path.join(dir, `problems-${count}.jsonl`);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}
