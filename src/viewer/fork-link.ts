/**
 * Which run of the viewer's a run was made from. A fork's manifest names the
 * run it was forked from (`tmas fork` writes `forkedFrom: { run, dir, changed }`);
 * read generically, any field of the manifest beyond the ones every run has
 * that names another run of the folder, by its directory or its run id, makes
 * the link, and a `changed` beside the name says what the fork changed.
 * Directories are matched first (they are listed without opening a store);
 * run ids only among the fork's sibling directories, whose stores are opened.
 */
import path from 'node:path';
import type { RunCatalog } from './run-catalog.ts';
import type { ViewedRun } from './viewed-run.ts';

/** The run a run was made from, among the viewer's runs. */
export interface ForkLink {
  /** Its index in the runs page's list. */
  index: number;
  label: string;
  /** What the fork changed, as its manifest says it (empty when it does not). */
  changed: string[];
}

/** The fields every run's manifest has: none of them names another run. */
const OWN_FIELDS = new Set(['run', 'config', 'configHash', 'tmasVersion', 'journalVersion', 'protocolVersion', 'simulated', 'strategy', 'createdAt']);

/** Siblings whose run ids are read, at most: each is a store opened. */
const MAX_SIBLINGS = 20;

/** A reference the manifest makes: the strings that may name a run, and what it says was changed. */
interface Reference {
  names: string[];
  changed: string[];
}

function describeChange(change: unknown): string {
  return typeof change === 'string' ? change : JSON.stringify(change);
}

function changesOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map(describeChange);
  if (typeof value === 'object') return Object.entries(value).map(([name, change]) => `${name}: ${describeChange(change)}`);
  return [describeChange(value)];
}

function referencesOf(manifest: object): Reference[] {
  const found: Reference[] = [];
  for (const [field, value] of Object.entries(manifest)) {
    if (OWN_FIELDS.has(field)) continue;
    if (typeof value === 'string') found.push({ names: [value], changed: [] });
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const names = Object.entries(value).flatMap(([name, inner]) => (name !== 'changed' && typeof inner === 'string' ? [inner] : []));
      found.push({ names, changed: changesOf((value as { changed?: unknown }).changed) });
    }
  }
  return found.filter((reference) => reference.names.length > 0);
}

/** The directories a name may mean: itself when absolute, else from the fork's folder or from where the viewer runs. */
function placesOf(name: string, forkDir: string): string[] {
  return path.isAbsolute(name) ? [path.resolve(name)] : [path.resolve(path.dirname(forkDir), name), path.resolve(forkDir, name), path.resolve(name)];
}

async function byDirectory(catalog: RunCatalog, self: number, run: ViewedRun, reference: Reference): Promise<ForkLink | null> {
  const places = new Set(reference.names.flatMap((name) => placesOf(name, run.dir)));
  for (let index = 0; index < catalog.size; index++) {
    if (index === self) continue;
    const listing = await catalog.listing(index);
    if (listing.error === null && places.has(path.resolve(listing.dir))) return { index, label: listing.label, changed: reference.changed };
  }
  return null;
}

async function byRunId(catalog: RunCatalog, self: number, run: ViewedRun, reference: Reference): Promise<ForkLink | null> {
  let opened = 0;
  for (let index = 0; index < catalog.size && opened < MAX_SIBLINGS; index++) {
    if (index === self) continue;
    const listing = await catalog.listing(index);
    if (listing.error !== null || path.dirname(path.resolve(listing.dir)) !== path.dirname(run.dir)) continue;
    opened++;
    const sibling = await catalog.run(index).catch(() => null);
    if (sibling && reference.names.includes(sibling.manifest.run)) return { index, label: listing.label, changed: reference.changed };
  }
  return null;
}

const found = new WeakMap<RunCatalog, Map<number, Promise<ForkLink | null>>>();

async function findParent(catalog: RunCatalog, index: number, run: ViewedRun): Promise<ForkLink | null> {
  const references = referencesOf(run.manifest);
  for (const reference of references) {
    const link = await byDirectory(catalog, index, run, reference);
    if (link) return link;
  }
  for (const reference of references) {
    const link = await byRunId(catalog, index, run, reference);
    if (link) return link;
  }
  return null;
}

/** The run of the catalog that run `index` was made from, or null; found once per catalog and run. */
export function forkParent(catalog: RunCatalog, index: number, run: ViewedRun): Promise<ForkLink | null> {
  let byIndex = found.get(catalog);
  if (!byIndex) {
    byIndex = new Map();
    found.set(catalog, byIndex);
  }
  let link = byIndex.get(index);
  if (link === undefined) {
    link = findParent(catalog, index, run);
    byIndex.set(index, link);
    link.catch(() => byIndex.delete(index));
  }
  return link;
}
