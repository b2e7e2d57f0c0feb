/**
 * What a fork's pages say of the run it was made from (its manifest names
 * it: RunSummary.fork): on the run's page, which run and what changed, with
 * the problem list of both; on a problem's page, the problem side by side in
 * both.
 */
import type { RunSummary } from '../api-shapes.ts';
import { el } from './dom.ts';
import { compareHash, hashOf } from './links.ts';

/** The run's line about its parent, or nothing for a run that is no fork of a run shown. */
export function forkNote(run: RunSummary): HTMLElement | null {
  const fork = run.fork;
  if (!fork) return null;
  return el('p', { class: 'fork-note' }, [
    'forked from ',
    el('a', { href: `#/run/${fork.index}`, text: fork.label }),
    fork.changed.length ? `, changed: ${fork.changed.join('; ')}` : '',
    ' · ',
    el('a', { class: 'fork-problems', href: hashOf('problems', { runs: `${fork.index},${run.index}` }), text: 'problems of both, each side by side' }),
  ]);
}

/** A problem's link to itself side by side in the run's parent, or nothing. */
export function forkLink(run: RunSummary, id: string): HTMLElement | null {
  const fork = run.fork;
  return fork ? el('a', { class: 'fork-compare', href: compareHash([fork.index, run.index], id), text: `side by side with ${fork.label}` }) : null;
}
