/**
 * The tmas version, read from package.json so there is one place to bump it.
 */
import { readFileSync } from 'node:fs';
import { packagePath } from './package-root.ts';

/** The version of this tmas checkout. */
export const VERSION: string = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
