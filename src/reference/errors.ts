/** The error-code reference, from the one list of codes in the kernel. */
import { ERROR_CODES } from '../kernel/errors.ts';
import { generatedBanner, table } from './markdown.ts';

/** The page: every code with what it means, and how the CLI reports it. */
export function renderErrorReference(): string {
  return [
    generatedBanner('src/kernel/errors.ts'),
    '',
    '# Error codes',
    '',
    'Every error tmas reports names its code in brackets at the end of its message (`tmas: … [TMAS_USAGE]`): match on the code, never on the text. ' +
      'A mistake the user can fix exits with 2 and no stack trace; a run that ended with calls failed for good (`TMAS_RUN_INCOMPLETE`), or a run, a table or a report with a method whose figures are not a result (`TMAS_RUN_UNGRADED`, `TMAS_TABLE_UNGRADED`, `TMAS_REPORT_UNGRADED`), exits with 3 once its files are written; ' +
      'an interrupted run (`TMAS_INTERRUPTED`) with 130; a bug in tmas with 1.',
    '',
    table(
      ['code', 'meaning'],
      Object.entries(ERROR_CODES).map(([code, meaning]) => [`\`${code}\``, meaning]),
    ),
    '',
  ].join('\n');
}
