/** Types of build-fingerprint.mjs, plain JavaScript so that the bin can use it before anything is compiled. */

/** Everything the build reads, relative to the checkout. */
export declare const BUILD_INPUTS: readonly string[];

/** The fingerprint of the build inputs under `root`, as they are now. */
export declare function buildFingerprint(root: string): string;
