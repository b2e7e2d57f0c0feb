/**
 * Sets of integers given by residues, in any of the ways people write them:
 * "odd n", "n is even", "n = 4k + 3", "n \equiv 1, 2 \pmod 3", "multiples of
 * 5", "n not divisible by 3". A union of such items is reduced to its
 * smallest modulus, so "n \equiv 1, 3, 5 \pmod 6" and "odd n" are one set,
 * and printed as one text per residue ("residue_1_mod_2").
 */

/** Residues `values` modulo `mod` (0 ≤ value < mod). */
export interface ResidueSet {
  mod: bigint;
  values: bigint[];
}

/** A function's parity in words: "even function", "an odd function", "the function is even", "f(x) is an odd function". */
const FUNCTION_PARITY = /^(?:(?:the\s+)?function\s+(?:[a-zA-Z](?:\([a-zA-Z]\))?\s+)?is\s+|[a-zA-Z](?:\([a-zA-Z]\))?\s+is\s+)?(?:an?\s+)?(odd|even)\s+functions?$|^(?:the\s+)?function\s+(?:[a-zA-Z](?:\([a-zA-Z]\))?\s+)?is\s+(odd|even)$/i;

/** Moduli beyond this are left as written: the reduction enumerates residues. */
const MAX_MODULUS = 10_000n;

const MOD = String.raw`(?:\\pmod\s*\{?\s*(\d+)\s*\}?|\(?\s*(?:\\bmod|\\mod|mod)\s*\{?\s*(\d+)\s*\}?\s*\)?)`;

const norm = (r: bigint, m: bigint): bigint => ((r % m) + m) % m;

function single(r: bigint, m: bigint): ResidueSet | null {
  return m >= 1n && m <= MAX_MODULUS ? { mod: m, values: [norm(r, m)] } : null;
}

function allBut(r: bigint, m: bigint): ResidueSet | null {
  if (m < 2n || m > MAX_MODULUS) return null;
  const values: bigint[] = [];
  for (let v = 0n; v < m; v += 1n) if (v !== norm(r, m)) values.push(v);
  return { mod: m, values };
}

/** "n \equiv 1, 2 \pmod 3" and "n \equiv \pm 1 \pmod 6" as one congruence per residue. */
export function expandCongruences(text: string): string {
  return text.replace(
    new RegExp(String.raw`([a-zA-Z])\s*\\equiv\s*((?:\\pm\s*)?-?\d+(?:\s*,\s*-?\d+)*)\s*(${MOD})`, 'g'),
    (_m: string, letter: string, list: string, mod: string) => {
      const items = list.startsWith('\\pm') ? [list.replace(/\\pm\s*/, ''), `-${list.replace(/\\pm\s*/, '')}`] : list.split(/\s*,\s*/);
      // The space the modulus took after it stays: "\\pmod 2 or n \\equiv 0 \\pmod 3" is two items, not "2or".
      return items.map((r) => `${letter} \\equiv ${r.trim()} ${mod.trim()}`).join(', ') + (/\s$/.test(mod) ? ' ' : '');
    },
  );
}

const SUBJECT = String.raw`(?:all\s+)?(?:the\s+)?(?:(?:positive\s+)?(?:integers?|numbers?|values?)\s+)?(?:[a-zA-Z]\s+)?(?:(?:that|which)\s+(?:are|is)\s+|(?:is|are)\s+)?`;

/** One item written as a residue class, a parity or a divisibility; null otherwise. */
export function residueItem(item: string): ResidueSet | null {
  const t = item.trim();
  const named = /^residue((?:_\d+)+)_mod_(\d+)$/.exec(t);
  if (named?.[1] !== undefined && named[2] !== undefined) {
    const m = BigInt(named[2]);
    const sets = named[1].slice(1).split('_').map((v) => single(BigInt(v), m));
    return sets.every((x) => x !== null) ? unionOf(sets.filter((x) => x !== null)) : null;
  }
  const congruence = new RegExp(String.raw`^(?:[a-zA-Z]\s*\\equiv\s*)?(-?\d+)\s*${MOD}$`).exec(t);
  if (congruence !== null && /\\equiv/.test(t)) return single(BigInt(congruence[1] ?? '0'), BigInt(congruence[2] ?? congruence[3] ?? '1'));
  // "n \not\equiv 0 \pmod 3": every other class (was no class, different from "n \equiv 1, 2 \pmod 3").
  const negated = new RegExp(String.raw`^[a-zA-Z]\s*\\not\s*\\equiv\s*(-?\d+)\s*${MOD}$`).exec(t);
  if (negated !== null) return allBut(BigInt(negated[1] ?? '0'), BigInt(negated[2] ?? negated[3] ?? '1'));
  // "n = 4k + 3", "4k+3", "n = 2k": the variable on the left differs from the parameter.
  // The parameter is a letter conventionally an integer; "y = 2x" is a line, not a residue class.
  const form = /^(?:(?:all\s+(?:numbers|integers)\s+of\s+the\s+form\s+)|([a-wA-W])\s*=\s*)?(\d+)\s*([jklmt])\s*(?:([+-])\s*(\d+))?$/i.exec(t);
  if (form !== null && form[1] !== form[3] && (form[1] !== undefined || /form/i.test(t))) {
    const m = BigInt(form[2] ?? '1');
    if (m >= 2n) return single(BigInt(form[5] ?? '0') * (form[4] === '-' ? -1n : 1n), m);
  }
  // "odd" alone is the class too: against "odd numbers" it was a word, different from the class.
  const parity = /^(?:all\s+)?(?:(odd|even)(?:\s+(?:positive\s+)?(?:(?:integers?|numbers?)(?:\s+[a-zA-Z])?|values?\s+of\s+[a-zA-Z]|[a-zA-Z]))?|([a-zA-Z])\s+(?:is\s+)?(odd|even))$/i.exec(t);
  if (parity !== null) return single((parity[1] ?? parity[3] ?? '').toLowerCase() === 'odd' ? 1n : 0n, 2n);
  // "an even function", "the function is odd", "f(x) is an even function": the parity a reference "even" names.
  const functionParity = FUNCTION_PARITY.exec(t);
  if (functionParity !== null) return single((functionParity[1] ?? functionParity[2] ?? '').toLowerCase() === 'odd' ? 1n : 0n, 2n);
  // "3 \mid n", "3 | n", "3 \nmid n".
  const divides = /^(\d+)\s*(\\mid|\||\\nmid)\s*[a-zA-Z]$/.exec(t);
  if (divides?.[1] !== undefined) return divides[2] === '\\nmid' ? allBut(0n, BigInt(divides[1])) : single(0n, BigInt(divides[1]));
  // "multiples of 5", "n is a multiple of 5", "n divisible by 5", and their negations.
  const multiple = new RegExp(String.raw`^${SUBJECT}(not\s+|non-?)?(?:an?\s+)?(?:multiples?\s+of|divisible\s+by)\s+(\d+)$`, 'i').exec(t);
  if (multiple !== null) {
    const m = BigInt(multiple[2] ?? '1');
    return multiple[1] === undefined ? single(0n, m) : allBut(0n, m);
  }
  return null;
}

/**
 * "2k + 1" whose k the same answer ranges over every integer ("2k+1, k \in
 * \mathbb{Z}", "\{2k : k \in \mathbb{Z}\}"): the class 1 mod 2. Bare, "2k" is an
 * expression in k (residueItem wants "n = 2k"); ranged, it lists the class.
 */
export function rangedResidue(item: string, ranged: ReadonlySet<string>): ResidueSet | null {
  const form = /^(\d+)\s*([jklmt])\s*(?:([+-])\s*(\d+))?$/.exec(item.trim());
  if (form === null || !ranged.has(form[2] ?? '')) return null;
  const mod = BigInt(form[1] ?? '1');
  return mod >= 2n ? single(BigInt(form[4] ?? '0') * (form[3] === '-' ? -1n : 1n), mod) : null;
}

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b);
}

/** The union of residue sets, at their least common modulus; null when that is too large. */
export function unionOf(sets: readonly ResidueSet[]): ResidueSet | null {
  let mod = 1n;
  for (const s of sets) {
    mod = (mod / gcd(mod, s.mod)) * s.mod;
    if (mod > MAX_MODULUS) return null;
  }
  const members = new Set<bigint>();
  for (const s of sets) for (const v of s.values) for (let x = v; x < mod; x += s.mod) members.add(x);
  return { mod, values: [...members].sort((a, b) => (a < b ? -1 : 1)) };
}

/** The integers not in `set`. */
export function complementOf(set: ResidueSet): ResidueSet {
  const members = new Set(set.values);
  const values: bigint[] = [];
  for (let v = 0n; v < set.mod; v += 1n) if (!members.has(v)) values.push(v);
  return { mod: set.mod, values };
}

/** The same set at its smallest modulus ("1, 3, 5 mod 6" is "1 mod 2"). */
export function reduced(set: ResidueSet): ResidueSet {
  const members = new Set(set.values);
  for (let d = 1n; d < set.mod; d += 1n) {
    if (set.mod % d !== 0n) continue;
    if (set.values.every((v) => members.has((v + d) % set.mod))) {
      return { mod: d, values: set.values.filter((v) => v < d) };
    }
  }
  return set;
}

/** The reduced set as one word ("residue_1_2_mod_3"): a condition of a case distinction. */
export function residueKey(set: ResidueSet): string {
  const r = reduced(set);
  return `residue_${r.values.join('_')}_mod_${r.mod}`;
}

/** One text per residue of the reduced set; `\mathbb{Z}` for every integer, `\emptyset` for none. */
export function residueTexts(set: ResidueSet): string[] {
  const r = reduced(set);
  if (r.values.length === 0) return ['\\emptyset'];
  if (r.mod === 1n) return ['\\mathbb{Z}'];
  // One word each, so that two different classes are different words, not free text.
  return r.values.map((v) => `\\text{residue_${v}_mod_${r.mod}}`);
}

/** "2, 4, 6, \dots": three terms or more, then an ellipsis that ends the list. */
const PROGRESSION = /^(-?\d{1,12}(?:\s*,\s*-?\d{1,12}){2,})\s*,\s*\\(?:[lc]?dots)$/;

/**
 * An endless progression of integers as the residue class it lists: "2, 4, 6, \dots" is the even numbers, "1, 4, 7,
 * \dots" those that are 1 mod 3. Only where its first term is the least positive one of its class, as a list of
 * positive integers begins: read as a list, the right "2, 4, 6, \dots" was graded different from "even n", sure of it.
 * Null for any other answer ("0, 2, 4, \dots", a difference below 2, terms that are no progression).
 */
export function progressionClass(tex: string): string | null {
  const terms = PROGRESSION.exec(tex.trim())?.[1]?.split(',').map((term) => BigInt(term.trim()));
  const [first, second] = terms ?? [];
  if (terms === undefined || first === undefined || second === undefined) return null;
  const step = second - first;
  if (step < 2n || step > MAX_MODULUS || first < 1n || first > step) return null;
  if (!terms.every((term, k) => term === first + BigInt(k) * step)) return null;
  return residueTexts({ mod: step, values: [norm(first, step)] }).join(', ');
}
