/** `npm run docs`: writes the generated reference pages (docs/reference/). */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packagePath } from '../kernel/package-root.ts';
import { renderReference } from './index.ts';

for (const [page, text] of Object.entries(await renderReference())) {
  const file = packagePath(page);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  process.stdout.write(`wrote ${page}\n`);
}
