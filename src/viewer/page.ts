/**
 * The viewer's HTML shell. Everything it loads comes from the viewer itself:
 * Chart.js and KaTeX out of node_modules, the page's style from
 * src/viewer/browser/, and its script: browser/viewer.ts bundled with the
 * modules it imports, which builds the page from the JSON API.
 */

/** The page served at `/`. */
export function viewerPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tmas view</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/katex/katex.min.css">
<link rel="stylesheet" href="/assets/viewer.css">
<link rel="stylesheet" href="/assets/runs.css">
<link rel="stylesheet" href="/assets/compare.css">
</head><body>
<header><a href="#/" class="brand">tmas view</a><nav id="runs"><a href="#/">runs</a></nav><a id="back-to-list" hidden>← problem list</a><span id="status"></span></header>
<main id="app">Loading…</main>
<script src="/assets/chart.js"></script>
<script src="/assets/katex/katex.min.js"></script>
<script src="/assets/katex/contrib/auto-render.min.js"></script>
<script src="/assets/viewer.js"></script>
</body></html>
`;
}
