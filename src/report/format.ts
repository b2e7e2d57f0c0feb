/**
 * Small formatting helpers shared by the report's renderers: escaping for
 * HTML, shares, short numbers, differences in points, and the colours of runs.
 */

/** Colours of runs, in order; chosen to stay apart for colour-blind readers. */
export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'] as const;

/** Escapes text for HTML (element content and quoted attributes). */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A short number: 12k, 1.5M. */
export function shortNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (abs >= 1e4) return `${Number((value / 1e3).toPrecision(3))}k`;
  return String(Number(value.toPrecision(4)));
}

/** `+8.3`: a difference of two shares in points, signed, one decimal. */
export function signedPoints(value: number): string {
  const points = (value * 100).toFixed(1);
  return value > 0 ? `+${points}` : points;
}

/** `41.7%`: a share in percent, one decimal; `–` where there is no figure. */
export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${(value * 100).toFixed(1)}%`;
}

/**
 * A run's final Pass@1, with the share of its last iteration's candidates the judge graded when it
 * gave no verdict on some (`33.0% (90.9% judged)`): that Pass@1 is over those alone, as the run's
 * own table and table1.md's 'judged' column say; the report's cell read as if every one was graded.
 */
export function finalPass1(pass1: number | null | undefined, last: { judgeCoverage?: number | null } | undefined): string {
  const coverage = last?.judgeCoverage;
  return coverage == null || coverage >= 1 || pass1 == null ? percent(pass1) : `${percent(pass1)} (${percent(coverage)} judged)`;
}

/**
 * A best-verified share, or `n/a` where no usable verification score picked a candidate: a run
 * without verifiers (`verified` false), or an iteration whose every verification was unusable.
 */
export function bestVerifiedPercent(verified: boolean, value: number | null | undefined): string {
  return verified && value !== null && value !== undefined ? percent(value) : 'n/a';
}
