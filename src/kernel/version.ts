/**
 * The tmas version, read from package.json so there is one place to bump it.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The version of this tmas checkout. */
export const VERSION: string = (require('../../package.json') as { version: string }).version;
