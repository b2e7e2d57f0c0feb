/** Settings of what a run writes and shows: its directory, the final table, the live viewer. */
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';
import { DEFAULT_UNUSABLE_SHARE } from '../../observers/role-outputs.ts';
import { decimal, integer } from '../parsers.ts';
import { field } from '../field.ts';
import { setting, type SettingContext } from '../setting.ts';

/** A local time as `20261126-134502`, for default run directory names. */
function timestamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/**
 * `--output-file` names a directory, as in the reference implementation,
 * despite its name: a value that looks like a file is refused rather than
 * made into a directory called `out.jsonl`.
 */
function outputDirectory(value: string): string {
  if (/\.(jsonl|json|csv|parquet)$/i.test(value)) {
    throw new UserError(
      'TMAS_USAGE',
      `--output-file ${value} looks like a file, but it names the run's output directory (results.jsonl, metrics.json and store/ go inside it). ` +
        `Give a directory, e.g. --output-file ${value.replace(/\.[^./]+$/, '')}.`,
    );
  }
  return value;
}

function defaultOutputDir({ flags, demo }: SettingContext, now: Date): string {
  const input = (flags.inputFile as string | undefined) ?? (demo ? 'demo.jsonl' : 'run');
  return path.join('runs', `${path.basename(input).replace(/\.[^.]+$/, '')}-${timestamp(now)}`);
}

/** `--output-file`, `--wide`, `--view`. */
export const OUTPUT_SETTINGS = [
  setting<string>({
    flags: '--output-file <dir>',
    section: 'outputs',
    help: 'output directory for the store, results.jsonl and metrics.json',
    defaultText: 'runs/<input>-<time>',
    parse: outputDirectory,
    namesTheRun: true,
    field: field('outputs', 'dir'),
    resolve: (dir, context) => path.resolve(dir ?? defaultOutputDir(context, context.now)),
  }),
  setting<number>({
    flags: '--unusable-warn-share <share>',
    section: 'outputs',
    help: "warn at the end of the run (and mark ⚠ in reports and table1.md) when more than this share of a role's outputs in an iteration could not be used",
    parse: decimal(0, 1),
    default: DEFAULT_UNUSABLE_SHARE,
    shapesCalls: false,
    field: field('outputs', 'unusableWarnShare'),
    before: DEFAULT_UNUSABLE_SHARE,
  }),
  setting<boolean>({ flags: '--wide', section: 'outputs', help: 'print every column of the final table (default: the essential ones, within 80 columns)' }),
  setting<number | boolean>({
    flags: '--view [port]',
    section: 'outputs',
    help: 'serve the web viewer of this run on loopback while it goes, and after it until Ctrl-C (port: default any free one)',
    parse: integer(0, 65_535),
  }),
];
