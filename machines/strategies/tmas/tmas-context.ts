/**
 * What TMAS's prompts carry from one iteration to the next, as template
 * variables and the blocks of the built-in templates: R(t-1) (`rollouts`),
 * the experience bank (`experience`) and the guideline bank (`guidelines`).
 * When a prompt does not fit, rollout texts go first (lowest score first),
 * then bank records (oldest first), as docs/concepts/context-budget.md says. The tags
 * (`<rollout …>`, `- [pitfall] …`) are also what the simulated model reads.
 */
import type { ExperienceRecord, GuidelineRecord, Rollout } from '../../../src/kernel/protocol.ts';
import { problemValues, type TemplateValues, type TemplateVariable } from '../../role-template.ts';
import { formatScore, type ValuesWithDrops } from '../../verification-values.ts';

/** Drop ranks: rollout text goes first (lowest score first), then bank records (oldest first). */
const ROLLOUT_TEXT_RANK = 0;
const BANK_RECORD_RANK = 100_000;

/** R(t-1) as a template's `rollouts`: each rollout's text may be left out, lowest-scored rollouts first. */
export function rolloutValues(rollouts: Rollout[]): ValuesWithDrops {
  const byScore = [...rollouts].sort((a, b) => (a.score ?? -1) - (b.score ?? -1) || a.candidate - b.candidate);
  const rank = new Map(byScore.map((rollout, position) => [rollout.candidate, position]));
  return {
    values: rollouts.map((rollout) => ({ candidate: rollout.candidate, answer: rollout.answer ?? 'none', score: formatScore(rollout.score), summary: rollout.summary, text: rollout.text })),
    drops: rollouts.map((rollout, index) => ({ id: `rollout-${rollout.candidate}-text`, path: ['rollouts', index, 'text'], drop: ROLLOUT_TEXT_RANK + (rank.get(rollout.candidate) ?? 0) })),
  };
}

/** E(t-1) as a template's `experience`: records may be left out, oldest first. */
export function experienceValues(bank: ExperienceRecord[]): ValuesWithDrops {
  return {
    values: bank.map((record) => ({ kind: record.kind, text: record.text })),
    drops: bank.map((_, index) => ({ id: `experience-${index}`, path: ['experience', index], drop: BANK_RECORD_RANK + index })),
  };
}

/** G(t-1) as a template's `guidelines`: records may be left out, oldest first. */
export function guidelineValues(bank: GuidelineRecord[]): ValuesWithDrops {
  return {
    values: bank.map((record) => ({ strategy: record.strategy, outcome: record.outcome })),
    drops: bank.map((_, index) => ({ id: `guideline-${index}`, path: ['guidelines', index], drop: BANK_RECORD_RANK + index })),
  };
}

/**
 * The values of a bank agent's template (experience, guideline): the problem,
 * this iteration's rollouts R(t) and the agent's bank so far, as `bankName`;
 * rollout texts are left out before bank records.
 */
export function roundValues(request: { question: string; rollouts: Rollout[] }, options: { proof: boolean }, bankName: string, bank: ValuesWithDrops): TemplateValues {
  const rollouts = rolloutValues(request.rollouts);
  return { variables: problemValues(request, options, { rollouts: rollouts.values, [bankName]: bank.values }), drops: [...rollouts.drops, ...bank.drops] };
}

/** The variables of TMAS's context, as `tmas prompts` documents them. */
export const CONTEXT_VARIABLES = {
  rollouts: {
    shape: { listOf: { fields: { candidate: 'integer', answer: 'string', score: 'string', summary: 'string', text: { mayBeLeftOut: 'string' } } } },
    about:
      "the previous iteration's rollouts R(t-1), in candidate order: final answer ('none' when none), mean verification score " +
      "with three decimals ('none' when none), summary of the verifications (may be empty) and solution text; " +
      'when the prompt does not fit, `text` is left out of the lowest-scored rollouts first (test it with `is defined`)',
  },
  experience: {
    shape: { listOf: { fields: { kind: { oneOf: ['conclusion', 'pitfall'] }, text: 'string' } } },
    about: 'the experience bank E(t-1), oldest record first; when the prompt does not fit, the oldest records are left out (after every rollout text)',
  },
  guidelines: {
    shape: { listOf: { fields: { strategy: 'string', outcome: 'string' } } },
    about: 'the guideline bank G(t-1), oldest record first; when the prompt does not fit, the oldest records are left out (after every rollout text)',
  },
} as const satisfies Record<string, TemplateVariable>;

/** R(t), the rollouts of the iteration that just ended, as the experience and guideline agents read them. */
export const ROUND_ROLLOUTS_VARIABLE = {
  ...CONTEXT_VARIABLES.rollouts,
  about: CONTEXT_VARIABLES.rollouts.about.replace("the previous iteration's rollouts R(t-1)", "this iteration's rollouts R(t)"),
} as const satisfies TemplateVariable;

/** The rollouts block of the built-in templates. */
export const ROLLOUTS_BLOCK = `<rollouts>
{% for rollout in rollouts %}

<rollout candidate="{{ rollout.candidate }}" answer="{{ rollout.answer }}" score="{{ rollout.score }}">
Summary: {{ rollout.summary or '(none)' }}
{% if rollout.text is defined %}

Solution:
{{ rollout.text }}
{% endif %}
</rollout>
{% endfor %}

</rollouts>`;

/** The experience bank block of the built-in templates. */
export const EXPERIENCE_BLOCK = `<experience>
{% for record in experience %}

- [{{ record.kind }}] {{ record.text }}
{% endfor %}

</experience>`;

/** The guideline bank block of the built-in templates. */
export const GUIDELINES_BLOCK = `<guidelines>
{% for record in guidelines %}

- {{ record.strategy }} (outcome: {{ record.outcome }})
{% endfor %}

</guidelines>`;
