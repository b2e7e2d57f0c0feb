/**
 * The viewer's page script, bundled with the modules it imports into one
 * file (esbuild: the build, or the server when it runs from the sources). It
 * builds the page from the JSON API of src/viewer/server.ts. Routes live in
 * the URL hash:
 *   #/                          the runs page (runs.ts); a lone run opens at #/run/0
 *   #/problems?runs=R,S&sort=…  the problem list of runs R and S (problems.ts)
 *   #/run/R                     a run: curves, problem table, calls, errors (run-page.ts)
 *   #/run/R/problem/P/T         problem P of run R at iteration T: a transcript per candidate (problem-page.ts);
 *                               P is the problem's id, URL-encoded (every link writes it so), or its input
 *                               position from 0 when no problem has that id (the server resolves it)
 *   #/compare/R,S/problem/P     problem P side by side in runs R and S: calls, answers, grades (compare.ts)
 */
import { withRun } from './api.ts';
import { comparePage } from './compare.ts';
import { leavePage, setStatus } from './page-life.ts';
import { problemsPage, trail } from './problems.ts';
import { showProblem } from './problem-page.ts';
import { showRun } from './run-page.ts';
import { runsPage } from './runs.ts';

type Page = (app: HTMLElement, query: Record<string, string>) => Promise<unknown>;

/** The pages named by the route's first part alone. */
const PAGES: Record<string, Page> = { '': runsPage, problems: problemsPage };

/** The route's parts (decoded) and its query. */
function parseHash(): { parts: string[]; query: Record<string, string> } {
  let hash = location.hash.replace(/^#\/?/, '');
  const q = hash.indexOf('?');
  const query: Record<string, string> = {};
  if (q >= 0) {
    for (const pair of hash.slice(q + 1).split('&')) {
      const [name, value] = pair.split('=');
      if (name) query[decodeURIComponent(name)] = decodeURIComponent(value || '');
    }
    hash = hash.slice(0, q);
  }
  // A part may be an encoded problem id (a "/" in it is %2F); one that is not valid encoding is taken as written.
  const parts = hash
    .split('/')
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
  return { parts, query };
}

/** What the route names, drawn into `app`. */
function render(app: HTMLElement, parts: string[], query: Record<string, string>): Promise<unknown> {
  const [first = '', second, third, fourth, fifth] = parts;
  if (first === 'run' && third === 'problem') return withRun(Number(second)).then(() => showProblem(app, Number(second), fourth || '', Number(fifth || 0), query));
  if (first === 'compare' && third === 'problem') return comparePage(app, second ?? '', fourth ?? '');
  if (first === 'run') return withRun(Number(second)).then(() => showRun(app, Number(second), third || 'problems', query));
  const page = PAGES[first];
  return page ? page(app, query) : Promise.reject(new Error(`no page ${location.hash}`));
}

// Each navigation renders anew; only the latest one, still on its own hash (the home page of one run moves on to
// that run), may say the page is ready: a test waits for that.
let routes = 0;
function route(): void {
  const app = document.getElementById('app');
  if (!app) return;
  const generation = ++routes;
  const hash = location.hash;
  leavePage();
  const { parts, query } = parseHash();
  const done = render(app, parts, query);
  setStatus('');
  done.then(
    () => {
      if (generation === routes && location.hash === hash) document.body.setAttribute('data-ready', hash);
    },
    (error: unknown) => setStatus(`error: ${(error as Error).message}`),
  );
}

window.addEventListener('hashchange', trail);
document.addEventListener('DOMContentLoaded', trail);
window.addEventListener('hashchange', route);
route();
