/**
 * A candidate's verifications as the built-in templates show them (the
 * Summary agent's, and verify-refine-chains' Refine agent's): the template
 * variable, its values and the block of one verification. Also the plain
 * pieces a template's list variable is made of: its values with the drops
 * that may leave some out, and a score as the prompts write it.
 */
import type { Verification } from '../src/kernel/protocol.ts';
import type { TemplateDrop, TemplateValue } from './prompt.ts';
import type { TemplateVariable } from './role-template.ts';

/** A variable's values with the drops that may leave parts of them out. */
export interface ValuesWithDrops {
  values: TemplateValue[];
  drops: TemplateDrop[];
}

/** A score as the prompts show it: three decimals, or `none`. */
export function formatScore(score: number | null): string {
  return score === null ? 'none' : score.toFixed(3);
}

/** A candidate's verifications as a template's `verifications`; each may be left out, in their order, when the prompt does not fit. */
export function verificationValues(verifications: Verification[]): ValuesWithDrops {
  return {
    values: verifications.map((v) => ({ index: v.index, score: formatScore(v.score), analysis: v.analysis })),
    drops: verifications.map((v, position) => ({ id: `verification-${v.index}`, path: ['verifications', position], drop: v.index })),
  };
}

/** The `verifications` variable, as `tmas prompts` documents it. */
export const VERIFICATIONS_VARIABLE = {
  shape: { listOf: { fields: { index: 'integer', score: 'string', analysis: 'string' } } },
  about: "the candidate's verifications: index, score with three decimals ('none' when unparseable) and the verifier's whole analysis",
} as const satisfies TemplateVariable;

/** One verification in the built-in templates, inside a `{% for verification in verifications %}`. */
export const VERIFICATION_ITEM = `<verification index="{{ verification.index }}" score="{{ verification.score }}">
{{ verification.analysis }}
</verification>`;
