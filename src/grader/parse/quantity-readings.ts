/**
 * The readings under which two quantities are compared: percent signs and
 * units that change a value are converted or make a match `unsure`, never
 * silently dropped. The rules (docs/guide/grading.md, "Units"):
 *
 * - A unit the table does not know ("7 ways", "12 moves") names what is
 *   counted: dropped.
 * - Two known units of one dimension are converted ("30 cm" is "300 mm",
 *   "3 cm" is not "3 mm"); of different dimensions, a match is `unsure`.
 * - A known unit against a bare value: the value is read in that unit
 *   ("16" against "16 cm^2"), except for angles, where a bare value may be
 *   radians too ("60^\circ" is "\frac{\pi}{3}").
 * - Neither side marked, one a number of degrees and the other that angle
 *   in radians ("60" against "\frac{\pi}{3}"): `unsure`, because olympiad
 *   references give angles as bare degrees.
 * - Percent: see `percentScales`.
 */
import type { Answer, ResolvedOptions } from './types.ts';
import { unitPower, unitScale } from '../math/unit-table.ts';

type Expr = Extract<Answer, { kind: 'expr' }>;

/** One way to read the two sides: LaTeX to compare, scales for percent, and what a match means. */
export interface Reading {
  gold: string;
  pred: string;
  scaleGold: number;
  scalePred: number;
  /** `unsure` for a reading that is a guess (a unit refused, degrees assumed). */
  onMatch: 'equal' | 'unsure';
  /** True when the texts are the sides as written, so renaming may still apply. */
  asWritten: boolean;
}

interface TexReading {
  gold: string;
  pred: string;
  onMatch: 'equal' | 'unsure';
}

const times = (tex: string, factor: string): string => (factor === '1' ? tex : `(${tex}) \\cdot ${factor}`);

const hasPi = (tex: string): boolean => /\\pi(?![a-zA-Z])/.test(tex);

/** A plain number of degrees: digits, a decimal or a fraction of them, and no pi. */
const DEGREES = /^-?(?:\d+(?:\.\d+)?|\\frac\{\d+\}\{\d+\})$/;

/**
 * An angle with its unit against a bare value. Against degrees the bare
 * value is degrees or radians; against radians it is radians, or degrees
 * when it is a plain number (a guess, so `unsure`).
 */
function angleReadings(markedTex: string, factor: string, bareTex: string, markedIsGold: boolean): TexReading[] {
  const pair = (marked: string, bare: string, onMatch: 'equal' | 'unsure'): TexReading =>
    markedIsGold ? { gold: marked, pred: bare, onMatch } : { gold: bare, pred: marked, onMatch };
  if (factor !== '1') return [pair(markedTex, bareTex, 'equal'), pair(times(markedTex, factor), bareTex, 'equal')];
  const readings = [pair(markedTex, bareTex, 'equal')];
  if (DEGREES.test(bareTex.trim())) readings.push(pair(markedTex, times(bareTex, '\\frac{\\pi}{180}'), 'unsure'));
  return readings;
}

function unitReadings(gold: Expr, pred: Expr): TexReading[] {
  const g = unitScale(gold.unit);
  const p = unitScale(pred.unit);
  const direct: TexReading = { gold: gold.tex, pred: pred.tex, onMatch: 'equal' };
  if (g !== null && p !== null) {
    if (g.dimension !== p.dimension) return [{ ...direct, onMatch: 'unsure' }];
    return g.factor === p.factor ? [direct] : [{ gold: times(gold.tex, g.factor), pred: times(pred.tex, p.factor), onMatch: 'equal' }];
  }
  // Neither unit known, but one squared and the other not: another quantity, which the values cannot settle.
  if (g === null && p === null && gold.unit !== null && pred.unit !== null && unitPower(gold.unit) !== unitPower(pred.unit)) return [{ ...direct, onMatch: 'unsure' }];
  const marked = g ?? p;
  if (marked !== null && marked.dimension === 'angle') return angleReadings(g !== null ? gold.tex : pred.tex, marked.factor, g !== null ? pred.tex : gold.tex, g !== null);
  if (marked === null && hasPi(gold.tex) !== hasPi(pred.tex)) {
    const degrees = hasPi(gold.tex) ? pred.tex : gold.tex;
    if (DEGREES.test(degrees.trim())) {
      const asRadians = times(degrees, '\\frac{\\pi}{180}');
      return [direct, hasPi(gold.tex) ? { gold: gold.tex, pred: asRadians, onMatch: 'unsure' } : { gold: asRadians, pred: pred.tex, onMatch: 'unsure' }];
    }
    // "\pi - 2\alpha" against "180 - 2\alpha": an angle in radians against one in bare degrees, \pi being 180.
    const inDegrees = (tex: string): string => tex.replace(/\\pi(?![a-zA-Z])/g, '(180)');
    return [direct, { gold: inDegrees(gold.tex), pred: inDegrees(pred.tex), onMatch: 'unsure' }];
  }
  return [direct];
}

/**
 * Scales to try for (gold, pred) percent signs, each with what a match
 * under it means. 'lenient': a percent on the reference only may be
 * answered by the bare number (the question asked for a percentage, "what
 * percent ...?" answered "20") or by its value ("0.2"); a percent on the
 * prediction only is its value ("10\%" is 0.1), and matches the bare number
 * only as a guess ("25\%" against a reference 25 that may be the percentage
 * asked for or a count: `unsure`); on both sides the numbers compare
 * directly. 'value': every percent is its value.
 */
export function percentScales(goldPercent: boolean, predPercent: boolean, policy: ResolvedOptions['percent']): Array<[number, number, 'equal' | 'unsure']> {
  if (policy === 'value') return [[goldPercent ? 0.01 : 1, predPercent ? 0.01 : 1, 'equal']];
  if (goldPercent === predPercent) return [[1, 1, 'equal']];
  return goldPercent ? [[1, 1, 'equal'], [0.01, 1, 'equal']] : [[1, 0.01, 'equal'], [1, 1, 'unsure']];
}

/** Every reading of two quantities, the sides as written first. */
export function quantityReadings(gold: Expr, pred: Expr, options: ResolvedOptions): Reading[] {
  // Under 'strict' units were compared already (they match): only the values remain.
  const texts = options.units === 'strict' ? [{ gold: gold.tex, pred: pred.tex, onMatch: 'equal' as const }] : unitReadings(gold, pred);
  const scales = percentScales(gold.percent, pred.percent, options.percent);
  return texts.flatMap((t) =>
    scales.map(([scaleGold, scalePred, onMatch]) => ({
      ...t,
      scaleGold,
      scalePred,
      onMatch: onMatch === 'unsure' ? onMatch : t.onMatch,
      asWritten: t.gold === gold.tex && t.pred === pred.tex,
    })),
  );
}
