// The browser scripts of tmas and how they are bundled: each entry, a
// TypeScript module, with the modules it imports, into one classic script
// (an IIFE) that a page loads or inlines. Plain JavaScript, so that the build
// (src/build.mjs) and the server reading the sources (browser-script.ts) bundle
// them with the same options, and the two give the same script.

/** The viewer's page script, by its path in the checkout. */
export const VIEWER_ENTRY = 'src/viewer/browser/viewer.ts';

/** The report's charts script. */
export const REPORT_ENTRY = 'src/report/browser/report-charts.ts';

/** Every entry. */
export const BROWSER_ENTRIES = [VIEWER_ENTRY, REPORT_ENTRY];

/** esbuild's options for a browser entry: ES2017 (what the scripts were written in before they were bundled), no minifying. */
export const BROWSER_BUNDLE = {
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2017',
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'silent',
};
