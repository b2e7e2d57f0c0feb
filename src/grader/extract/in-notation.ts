/**
 * A value restated after "or" with the notation it is written in: "— or $0.0625$ as a decimal", ", or $25\%$ as a
 * percentage". A restatement, not a hedge: the extraction keeps the answer before it (statement.ts after an
 * announcement, remarks.ts after an unannounced value), restatement-after.ts reads it and grade.ts checks it is the same
 * value. A leaf, so that both readers share it.
 */

/** A value and the notation it is written in: "$0.0625$ as a decimal", "25% as a percentage". */
export const IN_NOTATION_AFTER = String.raw`(?:\$[^$\n]{1,40}\$|-?\d[\d.,]*%?)\s+(?:as\s+a\s+(?:decimal|fraction|percentage|percent)|in\s+(?:decimal\s+form|lowest\s+terms|simplest\s+form))\b`;

/** The answer's value restated next in another notation: ", or $0.0625$ as a decimal". */
export const NOTATION_NEXT = new RegExp(String.raw`^\s*[,—–]\s*or\s+${IN_NOTATION_AFTER}`, 'i');
