/**
 * The simulated Experience agent: from the rollout headers (answer, score) it
 * writes a conclusion for each well-scored answer (true when the answer is
 * right, false when the verifiers were fooled) and a pitfall for each poorly
 * scored one, skipping what the bank already holds. Valid JSON in a ```json block.
 */
import { HIGH_SCORE, LOW_SCORE } from '../model/accuracy.ts';
import { classifyAnswer } from '../model/catalogue.ts';
import { conclusionText, markerOfRecord, pitfallText, recordMarker } from '../model/records.ts';
import type { Responder } from './responder.ts';
import { readExperience, readRollouts } from '../model/wire.ts';

/** At most this many new records of each kind per reply. */
const MAX_RECORDS = 4;

interface Entry {
  text: string;
  candidate: number;
}

/** Answers an Experience-agent request. */
export const respondExperience: Responder = ({ seed, problem, rest }) => {
  const held = new Set(readExperience(rest).map((line) => `${line.kind}:${markerOfRecord(line.text) ?? line.text}`));
  const conclusions: Entry[] = [];
  const pitfalls: Entry[] = [];
  for (const rollout of readRollouts(rest)) {
    if (rollout.answer === null || rollout.score === null) continue;
    const kind = rollout.score >= HIGH_SCORE ? 'conclusion' : rollout.score < LOW_SCORE ? 'pitfall' : null;
    if (kind === null) continue;
    const about = classifyAnswer(problem, rollout.answer);
    const id = `${kind}:${recordMarker(seed, problem, about)}`;
    if (held.has(id)) continue;
    held.add(id);
    const list = kind === 'conclusion' ? conclusions : pitfalls;
    if (list.length >= MAX_RECORDS) continue;
    const write = kind === 'conclusion' ? conclusionText : pitfallText;
    list.push({ text: write(seed, problem, about, rollout.candidate, rollout.score), candidate: rollout.candidate });
  }
  const json = JSON.stringify({ conclusions, pitfalls }, null, 2);
  return `New records distilled from the attempts above:\n\n\`\`\`json\n${json}\n\`\`\``;
};
