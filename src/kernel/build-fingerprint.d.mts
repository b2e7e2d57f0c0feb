/** Types of build-fingerprint.mjs, plain JavaScript so that the bin can use it before anything is compiled. */

/** The folders the build compiles, each to dist/<folder>. */
export declare const SOURCE_DIRS: readonly string[];

/** Everything the build reads, relative to the checkout. */
export declare const BUILD_INPUTS: readonly string[];

/** The fingerprint of the build inputs under `root`, as they are now. */
export declare function buildFingerprint(root: string): string;

/** Whether the build in `root`/dist may run in place of the sources: current, and TMAS_FROM_SOURCES=1 not set. */
export declare function buildRuns(root: string): boolean;
