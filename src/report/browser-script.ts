/**
 * The browser scripts of tmas (the viewer's page, the report's charts), each
 * a TypeScript module bundled with what it imports into one script
 * (browser-bundle.mjs). The build writes them into dist/ (src/build.mjs) and a
 * process running from it reads them there; a process running from the
 * sources bundles an entry when it is first asked for, once.
 */
import { readFile } from 'node:fs/promises';
import { TmasError } from '../kernel/errors.ts';
import { FROM_BUILD, modulePath, PACKAGE_ROOT, packagePath } from '../kernel/package-root.ts';
import { BROWSER_BUNDLE, REPORT_ENTRY } from './browser-bundle.mjs';
import { inlineScript } from './chart-library.ts';

const scripts = new Map<string, Promise<string>>();

async function bundle(entry: string): Promise<string> {
  const esbuild = await import('esbuild');
  // From the package's root, as the build does: the script names its modules by their paths from there.
  const result = await esbuild.build({ ...BROWSER_BUNDLE, absWorkingDir: PACKAGE_ROOT, entryPoints: [packagePath(entry)], write: false });
  const script = result.outputFiles?.[0]?.text;
  if (script === undefined) throw new Error('esbuild wrote no file');
  return script;
}

async function scriptOf(entry: string): Promise<string> {
  try {
    return FROM_BUILD ? await readFile(modulePath(entry), 'utf8') : await bundle(entry);
  } catch (error) {
    const advice = FROM_BUILD ? 'Build tmas again: npm run build' : 'Check the sources: npx tsc --noEmit';
    throw new TmasError('TMAS_INTERNAL', `Cannot ${FROM_BUILD ? 'read' : 'bundle'} the browser script ${entry}: ${(error as Error).message}. ${advice}`, { cause: error });
  }
}

/** The script of a browser entry (its path in the checkout, `src/viewer/browser/viewer.ts`), made once per process. */
export function browserScript(entry: string): Promise<string> {
  let script = scripts.get(entry);
  if (script === undefined) {
    script = scriptOf(entry);
    scripts.set(entry, script);
    // A failure is not kept: the next request tries again.
    script.catch(() => scripts.delete(entry));
  }
  return script;
}

/** The report's charts script, as text safe inside an inline `<script>` element. */
export async function readReportScript(): Promise<string> {
  return inlineScript(await browserScript(REPORT_ENTRY));
}
