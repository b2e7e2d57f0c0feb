/** Types of browser-bundle.mjs, plain JavaScript so that the build can read it before anything is compiled. */
import type { BuildOptions } from 'esbuild';

/** The viewer's page script, by its path in the checkout. */
export declare const VIEWER_ENTRY: string;

/** The report's charts script. */
export declare const REPORT_ENTRY: string;

/** Every entry. */
export declare const BROWSER_ENTRIES: readonly string[];

/** esbuild's options for a browser entry. */
export declare const BROWSER_BUNDLE: BuildOptions;
