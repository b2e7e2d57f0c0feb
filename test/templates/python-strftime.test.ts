/**
 * strftime_now's directives that Llama-style chat templates may write and
 * Python's strftime gives on Linux: the C locale's %c, %x, %X and %r, the
 * week numbers %U and %W, %C, %k, %l, %P, %n and %t. They were printed as
 * written ('%x'), where transformers writes the date. Each expected text is
 * Python 3's datetime.strftime for the moment named.
 */
import { describe, expect, it } from 'vitest';
import { strftime } from '../../workers/python-strftime.ts';

const FORMAT = '%c|%x|%X|%U|%W|%C|%k|%l|%P|%r|%n%t';
const MOMENTS: Array<[Date, string]> = [
  [new Date(2024, 2, 5, 7, 8, 9), 'Tue Mar  5 07:08:09 2024|03/05/24|07:08:09|09|10|20| 7| 7|am|07:08:09 AM|\n\t'],
  [new Date(2023, 0, 1, 0, 0, 0), 'Sun Jan  1 00:00:00 2023|01/01/23|00:00:00|01|00|20| 0|12|am|12:00:00 AM|\n\t'],
  [new Date(2021, 11, 31, 23, 59, 59), 'Fri Dec 31 23:59:59 2021|12/31/21|23:59:59|52|52|20|23|11|pm|11:59:59 PM|\n\t'],
];

describe("strftime's C-locale forms and week numbers", () => {
  it('write a moment as Python does', () => {
    for (const [moment, expected] of MOMENTS) expect(strftime(moment, FORMAT)).toBe(expected);
  });
});
