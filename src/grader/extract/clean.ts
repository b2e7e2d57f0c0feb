/**
 * String-level normalisation of an extracted answer before it is parsed:
 * delimiters, spacing macros, `\left`/`\right`, synonyms of the same command,
 * thousands separators and broken escapes. Everything here preserves meaning;
 * decisions that could change it (units, percent) are made by the parser.
 */
import { assignmentRows, infixFractions, outwardIntervals, repeatingDecimals } from './notations.ts';
import { isWrapped, matchingClose, readBraced } from './scan.ts';

/**
 * Python strings written without `r""` turn `\f`, `\b`, `\a`, `\v` and `\t`
 * into control characters ("\frac" becomes form feed + "rac"). They never
 * occur in a real answer, so they are put back.
 */
function repairEscapes(s: string): string {
  return s
    .replace(/\x0c/g, '\\f')
    .replace(/\x08/g, '\\b')
    .replace(/\x07/g, '\\a')
    .replace(/\x0b/g, '\\v')
    .replace(/\t(?=[a-z])/g, '\\t')
    .replace(/\r(?=ight)/g, '\\r');
}

/** Unicode's precomposed fractions, by numerator and denominator. */
const VULGAR_FRACTIONS: Readonly<Record<string, string>> = {
  '½': '1/2', '⅓': '1/3', '⅔': '2/3', '¼': '1/4', '¾': '3/4', '⅕': '1/5', '⅖': '2/5', '⅗': '3/5', '⅘': '4/5',
  '⅙': '1/6', '⅚': '5/6', '⅐': '1/7', '⅛': '1/8', '⅜': '3/8', '⅝': '5/8', '⅞': '7/8', '⅑': '1/9', '⅒': '1/10',
};

/**
 * Characters that are another spelling of ASCII mathematics: full-width
 * forms ("１２", "（３，４）", typed by models answering in Chinese or
 * Japanese), precomposed fractions ("½", "2¾" a mixed number) and the
 * fraction slash ("3⁄4").
 */
function unicodeForms(s: string): string {
  return s
    .replace(/[\uFF01-\uFF5E]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/g, ' ')
    .replace(/[½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒]/g, (ch) => {
      const [num, den] = (VULGAR_FRACTIONS[ch] ?? '0/1').split('/');
      return `\\frac{${num ?? ''}}{${den ?? ''}}`;
    })
    .replace(/(\d)\s*⁄\s*(\d)/g, '$1/$2')
    // "x⁴", "x¹⁰", "x₁": superscript and subscript digits, as a power and an index.
    .replace(/[⁰¹⁴⁵⁶⁷⁸⁹]+|[⁰¹²³⁴⁵⁶⁷⁸⁹]{2,}/g, (run) => `^{${[...run].map((ch) => String(SUPERSCRIPTS.indexOf(ch))).join('')}}`)
    .replace(/[₀-₉]+/g, (run) => `_{${[...run].map((ch) => String(ch.charCodeAt(0) - 0x2080)).join('')}}`)
    .replace(/[αβγδεθλμνρστφχψω]/g, (ch) => `\\${GREEK[ch] ?? ''} `);
}

const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** Greek letters as their commands. */
const GREEK: Readonly<Record<string, string>> = {
  α: 'alpha', β: 'beta', γ: 'gamma', δ: 'delta', ε: 'epsilon', θ: 'theta', λ: 'lambda', μ: 'mu', ν: 'nu',
  ρ: 'rho', σ: 'sigma', τ: 'tau', φ: 'phi', χ: 'chi', ψ: 'psi', ω: 'omega',
};

/** Commands whose doubled backslash ("\\frac") is a JSON double-escape, not a line break. */
const COMMAND_WORDS =
  'frac|dfrac|tfrac|cfrac|sqrt|left|right|boxed|text|mathrm|mathbf|le|leq|ge|geq|lt|gt|ne|neq|pi|infty|cdot|times|div|pm|mp|in|cup|cap|circ|sin|cos|tan|log|ln|exp|alpha|beta|gamma|theta|lambda|mu|rho|sigma|phi|varphi|omega|begin|end|quad|qquad|dots|ldots|cdots|approx|binom|dbinom|mbox|operatorname|lfloor|rfloor|lceil|rceil|emptyset|varnothing|mathbb';
const DOUBLE_ESCAPED = new RegExp(`(^|[^\\\\])\\\\\\\\(${COMMAND_WORDS})(?![a-zA-Z])`, 'g');

/** Synonyms mapped to one spelling so later stages match a single form. */
const SYNONYMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\\[dtc]frac(?![a-zA-Z])/g, '\\frac'],
  [/\\[dt]binom(?![a-zA-Z])/g, '\\binom'],
  [/\\(?:leqslant|leq|le)(?![a-zA-Z])|<=|≤|⩽/g, '\\le '],
  [/\\(?:geqslant|geq|ge)(?![a-zA-Z])|>=|≥|⩾/g, '\\ge '],
  [/\\(?:neq|ne)(?![a-zA-Z])|!=|≠/g, '\\ne '],
  [/\\lt(?![a-zA-Z])/g, '<'],
  [/\\gt(?![a-zA-Z])/g, '>'],
  [/\\(?:varnothing|emptyset)(?![a-zA-Z])|∅/g, '\\emptyset '],
  [/\\(?:to|rightarrow)(?![a-zA-Z])/g, '\\to '],
  [/\\(?:textbf|textit|textrm|textnormal|textup|textsf|texttt|mbox|hbox)\s*\{/g, '\\text{'],
  // "5 \\mathrm{~cm}": a space set before the unit's letters.
  [/\\mathrm\s*\{(?:\s|~|\\[,;:! ])*([a-zA-Z]{2,}[^{}]*)\}/g, '\\text{$1}'],
  // "\\mathrm{5}": upright digits are the digits.
  [/\\mathrm\s*\{([^{}a-zA-Z\\]*)\}/g, '{$1}'],
  [/\\mathrm\s*\{\s*([a-zA-Z])\s*\}/g, '$1'],
  // A choice letter in parentheses ("\\mathrm{(C)}") is the letter as text.
  [/\\mathrm\s*\{\s*(\([a-zA-Z]\))\s*\}/g, '\\text{$1}'],
  // "\\mathbf{\\frac{1}{3}}": the bold may hold groups of its own (two levels read).
  [/\\(?:mathbf|mathit|mathsf|boldsymbol|bm)\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}/g, '$1'],
  [/π/g, '\\pi '],
  [/∞/g, '\\infty '],
  [/[·⋅]/g, '\\cdot '],
  [/×/g, '\\times '],
  [/÷/g, '\\div '],
  [/[−–]/g, '-'],
  [/∪/g, '\\cup '],
  [/∈/g, '\\in '],
  // "72\\text{°}", "72\\textdegree": the degree sign set as text is the sign (kept in \\text, the answer was cut there).
  [/\\text\s*\{\s*°\s*\}|\\textdegree(?![a-zA-Z])/g, '^\\circ '],
  [/°/g, '^\\circ '],
  // "52_{(8)}", "52_\\text{8}", "(52)_8": the base of a numeral written other ways than "52_{8}".
  [/(\d)\s*_\s*\{\s*(?:\(\s*(\d{1,2})\s*\)|\\text\s*\{\s*(\d{1,2})\s*\})\s*\}/g, '$1_{$2$3}'],
  [/(\d)\s*_\s*\\text\s*\{\s*(\d{1,2})\s*\}/g, '$1_{$2}'],
  [/(?<![\w)])\(\s*(\d+)\s*\)\s*_\s*(?=\{\s*\d{1,2}\s*\}|\d)/g, '$1_'],
  [/²/g, '^2'],
  [/³/g, '^3'],
  // "n ≡ 1 (mod 4)", "±2", "⌊x⌋": the other Unicode signs models write, as their commands.
  [/≡/g, '\\equiv '],
  [/±/g, '\\pm '],
  [/∓/g, '\\mp '],
  [/⌊/g, '\\lfloor '],
  [/⌋/g, '\\rfloor '],
  [/⌈/g, '\\lceil '],
  [/⌉/g, '\\rceil '],
  [/∩/g, '\\cap '],
  [/∖/g, '\\setminus '],
  [/\\infin(?![a-zA-Z])/g, '\\infty'],
  [/\\(?:cdotp|bullet)(?![a-zA-Z])/g, '\\cdot'],
  [/\\(?:lvert|rvert|vert)(?![a-zA-Z])/g, '|'],
  [/\\(?:lbrace)(?![a-zA-Z])/g, '\\{'],
  [/\\(?:rbrace)(?![a-zA-Z])/g, '\\}'],
  // "\\langle 1, 2 \\rangle": a vector's tuple.
  [/\\langle(?![a-zA-Z])/g, '('],
  [/\\rangle(?![a-zA-Z])/g, ')'],
  [/\\(?:dots|ldots|cdots)(?![a-zA-Z])|…/g, '\\dots '],
];

/** Layout-only commands: spacing, sizing, display style, colour. */
const LAYOUT =
  /\\(?:displaystyle|textstyle|scriptstyle|limits|nolimits|[bB]igg?[lrm]?|middle)(?![a-zA-Z])|\\(?:hspace|vspace|phantom|hphantom|color|textcolor)\s*\{[^{}]*\}|\\q?quad(?![a-zA-Z])|(?<!\\)\\[,:;! ]|~/g;

/** Removes `\left` / `\right` (and `\left.` / `\right.`), keeping the delimiter. */
function dropSizing(s: string): string {
  return s.replace(/\\(?:left|right)(?![a-zA-Z])\s*\.?/g, '');
}

/** Bracket depth (round, square, curly and \\{ \\}) at each index of `s`. */
function depths(s: string): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let i = 0; i < s.length; i += 1) {
    const ch = s[i];
    out.push(depth);
    if (ch === '\\' && (s[i + 1] === '{' || s[i + 1] === '}')) {
      depth += s[i + 1] === '{' ? 1 : -1;
      out.push(depth);
      i += 1;
    } else if (ch === '(' || ch === '[' || ch === '{') depth += 1;
    else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
  }
  return out;
}

/**
 * Thousands separators: "14{,}916", "11,\!111", "7,425,000", "1\,000" (a comma before
 * exactly three digits, not after a leading 0 and not inside a decimal part).
 * A bare comma counts only outside brackets: inside "(2,251,252)" or
 * "\{2,251,252\}" it separates items.
 */
function dropThousands(s: string): string {
  let out = s.replace(/(\d)\s*\{\s*,\s*\}\s*(?=\d)/g, '$1').replace(/(\d),\\!\s*(?=\d)/g, '$1');
  // "1\,000\,000", "1~000", "0.123\,456": a thin space before a group of three digits only groups digits, wherever the
  // number stands ("x = 1\,000", "(1\,000, 2\,000)"), so it is dropped; a plain space is read below, as a whole answer only.
  out = out.replace(/(\d)\s*(?:\\[,:; ]|~|\\thinspace(?![a-zA-Z]))\s*(?=\d{3}(?!\d))/g, '$1');
  const depth = depths(out);
  out = out.replace(/(?<![\d.,])([1-9]\d{0,2})((?:,\d{3})+)(?![\d])(?!,\d)/g, (m: string, head: string, groups: string, offset: number) =>
    (depth[offset] ?? 0) > 0 ? m : head + groups.replace(/,/g, ''),
  );
  // "1 000": digit groups separated by single spaces, only as a whole answer.
  if (/^-?\d{1,3}(?: \d{3})+(?:\.\d+)?$/.test(out.trim())) out = out.replace(/ /g, '');
  return out;
}

/**
 * Unicode radicals: "√51" is the root of 51, not √5 times 1; "√(x+1)" and
 * "∛2" as their LaTeX spellings.
 */
function unicodeRoots(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i += 1) {
    const ch = s[i] ?? '';
    if (ch !== '√' && ch !== '∛' && ch !== '∜') {
      out += ch;
      continue;
    }
    const command = ch === '√' ? '\\sqrt' : ch === '∛' ? '\\sqrt[3]' : '\\sqrt[4]';
    let j = i + 1;
    while (s[j] === ' ') j += 1;
    const rest = s.slice(j);
    const simple = /^(?:\d+(?:\.\d+)?|[a-zA-Z](?:_\{?\w+\}?)?|\\[a-zA-Z]+)/.exec(rest);
    if (s[j] === '(' || s[j] === '{') {
      const close = matchingClose(s, j);
      const end = close < 0 ? s.length : close;
      out += `${command}{${s.slice(j + 1, end)}}`;
      i = end;
    } else if (simple !== null) {
      out += `${command}{${simple[0]}}`;
      i = j + simple[0].length - 1;
    } else out += command;
  }
  return out;
}

/** Unwraps every `\boxed{X}` / `\fbox{X}` to X (an answer may arrive still boxed). */
function unbox(s: string): string {
  let out = s;
  for (let guard = 0; guard < 20; guard += 1) {
    const m = /\\(?:boxed|fbox|framebox)\s*\{/.exec(out);
    if (m === null) break;
    const open = m.index + m[0].length - 1;
    const { inner, end } = readBraced(out, open);
    out = out.slice(0, m.index) + inner + out.slice(end);
  }
  return out.replace(/\\(?:boxed|fbox)(?![a-zA-Z])/g, '');
}

/** A parenthesised group at the end of an answer, bare or in \\text: "(units)", "\\text{ (cm)}", "(\\text{cm}^2)". */
const TRAILING_GROUP = /\s*(?:\\text\{\s*\(([^(){}]*)\)\s*\}|\(((?:[^(){}]|\{[^{}]*\})*)\))$/;

/**
 * Words that make a parenthesised group a condition or a domain ("(for every
 * odd prime p)", "(if n is odd)", "(k integer)"), which the rules of words
 * read (words.ts): never a remark to drop.
 */
const QUALIFYING_WORDS = /\b(?:for|all|every|each|some|any|if|iff|when|whenever|where|with|unless|otherwise|such|only|integers?|reals?|primes?|odd|even|positive|negative|natural|nonnegative|constants?)\b/i;

/**
 * "12 \\text{ (cm)}", "7 (seven)", "x = 2 \\text{ (double root)}": a remark in
 * words in parentheses after the answer is not part of it. Words in \\text
 * are a remark; bare ones only when a word has three letters or more and a
 * vowel, since "3(ab)" is a product. A condition or a domain is no remark.
 */
function withoutRemark(s: string): string {
  const m = TRAILING_GROUP.exec(s);
  if (m === null || m.index === 0) return s;
  const inner = m[1] ?? m[2] ?? '';
  const words = inner.replace(/\\text\s*\{([^{}]*)\}/g, ' $1 ').replace(/\^\s*\{?\d\}?/g, ' ').trim();
  if (!/^[\p{L}][\p{L}\s,'.-]*$/u.test(words) || !/\p{L}{2}/u.test(words) || QUALIFYING_WORDS.test(words)) return s;
  const inText = m[1] !== undefined || /\\text/.test(inner);
  return inText || /(?=\p{L}*[aeiouy])\p{L}{3,}/iu.test(words) ? s.slice(0, m.index).trim() : s;
}

/**
 * Canonical LaTeX for an extracted answer: no math delimiters, no layout
 * commands, one spelling per command, no thousands separators, single spaces.
 */
export function cleanLatex(raw: string): string {
  let s = unicodeForms(repairEscapes(raw));
  s = s.replace(DOUBLE_ESCAPED, '$1\\$2');
  s = s.replace(/\\\$/g, ' '); // a currency sign is not part of the value
  s = s.replace(/\\?["“”]/g, ' '); // quotes around an answer ("the answer is "5"")
  s = s.replace(/\$+/g, ' ').replace(/\\[()[\]]/g, ' ');
  s = s.replace(/\\n(?![a-zA-Z])/g, ' '); // literal "\n" from double-escaped JSON
  s = unbox(s);
  s = s.replace(/\\begin\{(?:align\*?|aligned|equation\*?|gather\*?)\}|\\end\{(?:align\*?|aligned|equation\*?|gather\*?)\}/g, ' ');
  s = assignmentRows(s);
  s = unicodeRoots(s);
  for (const [pattern, replacement] of SYNONYMS) s = s.replace(pattern, replacement);
  s = dropSizing(s);
  s = infixFractions(s);
  s = repeatingDecimals(s);
  s = outwardIntervals(s);
  s = dropThousands(s);
  s = s.replace(LAYOUT, ' ');
  s = s.replace(/\\%|％/g, '%');
  s = s.replace(/\s+/g, ' ').trim();
  // Markdown emphasis or single quotes around a whole answer ("**Alice**", "'Alice'") are not part of it.
  s = s.replace(/^(\*{1,2}|_{2}|')(?![*_'\s])(.+?)(?<![*_'\s])\1$/, '$2');
  // Sentence punctuation after the answer ("5.", "x = 2;") is not part of
  // it; "!" is kept because it is a factorial, except after a word ("Alice!").
  s = s.replace(/(?:\s*[.,;:?。](?!\d))+$/, '').trim();
  s = s.replace(/(?<![\\a-zA-Z])([a-zA-Z]{2,})!$/, '$1');
  // "\\text{Tuesday.}", "\\text{Yes!}": the punctuation of a word answer set inside its \text.
  s = s.replace(/^(\\text\{[^{}]*?)(?:\s*[.,;:?!。])+\s*\}$/, '$1}');
  // "\\text{Answer: } 42", "\\textbf{Final answer:} 42" inside a box: a label in words before the answer, as "Answer: 42" is.
  s = s.replace(/^\\text\{\s*\p{L}+(?:\s+\p{L}+)?\s*[:：]\s*\}\s*(?=\S)/u, '');
  // "approximately 3.14", "about 12": a word for \approx before a number.
  s = s.replace(/^(?:approximately|approx\.?|roughly|about|around)\s+(?=[-\d.])/i, '');
  s = s.replace(/^(?:[:=]|\\approx(?![a-zA-Z]))\s*/, '');
  s = withoutRemark(s);
  // A mixed number "1 1/2" (a whole answer or a list item) is one and a half, as "1\frac12" is.
  s = s.replace(/(^|[,;]\s*)(-?\d+)\s+(\d+)\s*\/\s*(\d+)(?=\s*(?:[,;]|$))/g, '$1$2\\frac{$3}{$4}');
  // A trailing lone backslash is a cut-off command, not content.
  s = s.replace(/(?<!\\)\\$/, '').trim();
  // Braces around the whole answer ("{n = 4k+3}", "{\\text{odd}}") group nothing.
  for (let guard = 0; guard < 8 && s.startsWith('{') && isWrapped(s); guard += 1) s = s.slice(1, -1).trim();
  return s;
}
