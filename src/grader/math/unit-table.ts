/**
 * Units whose value the grader knows: lengths, areas, volumes, times,
 * masses and angles, each as a dimension and a factor to the dimension's
 * base unit (metre, second, gram, radian). Units outside the table (ways,
 * moves, apples, dollars) only name what is counted and are dropped by the
 * default policy; units in the table are converted when both sides carry
 * one, because "3 cm" and "3 mm" are different lengths.
 */
import { canonicalUnit } from './units.ts';

/** A known unit: its dimension ("L", "L^2", "T", "M", "angle") and its factor to the base unit, as LaTeX. */
export interface UnitScale {
  dimension: string;
  factor: string;
}

/** Base units of length, time, mass and angle: canonical spellings (see canonicalUnit) and factors. */
const BASE: ReadonlyArray<readonly [string, readonly string[], string]> = [
  ['L', ['mm', 'millimeter', 'millimetre'], '\\frac{1}{1000}'],
  ['L', ['cm', 'centimeter', 'centimetre'], '\\frac{1}{100}'],
  ['L', ['dm', 'decimeter', 'decimetre'], '\\frac{1}{10}'],
  ['L', ['m', 'meter', 'metre'], '1'],
  ['L', ['km', 'kilometer', 'kilometre'], '1000'],
  ['L', ['in', 'inch', 'inche'], '\\frac{127}{5000}'],
  ['L', ['ft', 'foot', 'feet'], '\\frac{381}{1250}'],
  ['L', ['yd', 'yard'], '\\frac{1143}{1250}'],
  ['L', ['mi', 'mile'], '\\frac{201168}{125}'],
  ['T', ['s', 'sec', 'second'], '1'],
  ['T', ['min', 'minute'], '60'],
  ['T', ['h', 'hr', 'hour'], '3600'],
  ['T', ['day'], '86400'],
  ['T', ['week', 'wk'], '604800'],
  ['M', ['mg', 'milligram'], '\\frac{1}{1000}'],
  ['M', ['g', 'gram'], '1'],
  ['M', ['kg', 'kilogram'], '1000'],
  ['angle', ['deg', 'degree'], '\\frac{\\pi}{180}'],
  ['angle', ['rad', 'radian'], '1'],
];

const BY_NAME = new Map<string, { dimension: string; factor: string }>(
  BASE.flatMap(([dimension, names, factor]) => names.map((name) => [name, { dimension, factor }] as const)),
);

/** Litres are volumes: a thousandth of a cubic metre. */
const VOLUME: ReadonlyMap<string, string> = new Map([
  ['l', '\\frac{1}{1000}'], ['liter', '\\frac{1}{1000}'], ['litre', '\\frac{1}{1000}'],
  ['ml', '\\frac{1}{1000000}'], ['milliliter', '\\frac{1}{1000000}'], ['millilitre', '\\frac{1}{1000000}'],
]);

/**
 * The scale of a unit as written after a value ("cm^2", "\text{ square meters}",
 * "sq ft", "degrees", "deg"); null for a unit the table does not know.
 */
export function unitScale(unit: string | null): UnitScale | null {
  const name = canonicalUnit(unit);
  if (name === '') return null;
  const rate = rateScale(RATE_ALIASES.get(name) ?? name);
  if (rate !== null) return rate;
  const volume = VOLUME.get(name);
  if (volume !== undefined) return { dimension: 'L^3', factor: volume };
  // "square meter", "sqft", "cubic centimetre", "cm2", "m3".
  const m = /^(square|sq|cubic|cu)?([a-z]+?)([23])?$/.exec(name);
  if (m === null || m[2] === undefined) return null;
  const base = BY_NAME.get(m[2]);
  if (base === undefined) return null;
  const power = m[3] !== undefined ? Number(m[3]) : m[1] === undefined ? 1 : m[1].startsWith('s') ? 2 : 3;
  if (power > 1 && base.dimension !== 'L') return null;
  if (m[1] !== undefined && m[3] !== undefined) return null;
  return power === 1 ? base : { dimension: `L^${power}`, factor: `(${base.factor})^${power}` };
}

/** Rates written as one word: miles and kilometres per hour, feet per second. */
const RATE_ALIASES: ReadonlyMap<string, string> = new Map([['mph', 'mi/h'], ['kph', 'km/h'], ['kmh', 'km/h'], ['fps', 'ft/s']]);

/** "m/s", "km/h", "miles per hour": a unit of the table over another, as the quotient of their scales. */
function rateScale(name: string): UnitScale | null {
  const m = /^([a-z]+?[23]?)(?:\/|per)([a-z]+[23]?)$/.exec(name);
  if (m === null) return null;
  const over = unitScale(m[1] ?? '');
  const under = unitScale(m[2] ?? '');
  if (over === null || under === null) return null;
  return { dimension: `${over.dimension}/${under.dimension}`, factor: `\\frac{${over.factor}}{${under.factor}}` };
}

/**
 * The power a unit is raised to, whether or not the table knows it: 2 for
 * "square units", "sq units", "units^2"; 3 for "cubic units", "units^3"; 1
 * otherwise. Two units the table does not know are still not the same
 * quantity when their powers differ ("5 square units" and "5 cubic units").
 */
export function unitPower(unit: string | null): number {
  const name = canonicalUnit(unit);
  const power = /[23]$/.exec(name);
  if (power !== null) return Number(power[0]);
  if (/^(?:square|sq(?=[a-z]{2}))/.test(name)) return 2;
  return name.startsWith('cubic') ? 3 : 1;
}
