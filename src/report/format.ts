/**
 * Small formatting helpers shared by the report's renderers: escaping for
 * HTML, short numbers, differences in points, and the colours of runs.
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
