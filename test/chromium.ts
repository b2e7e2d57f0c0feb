import { chromium, type Browser, type Page } from 'playwright-core';
import { test } from './fixtures.ts';

/** Debian's Chromium for the browser tests (`.ci/run` installs it; without it they skip), and how it is started. */
export const CHROMIUM = '/usr/bin/chromium';
/** Headless, and nothing that reaches the network on its own. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A page of 1400 × 1000 that records the errors it logs (console and uncaught): a page that works logs none. */
export async function pageWithErrors(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { page, errors };
}

/**
 * `test` with `browser`: one Chromium for the test file, started when a test first asks for it
 * (about 1.6 s of CPU time a start), closed after the file's last test. Each test gets it with no
 * page open, and the pages it opened (each in its own context) are closed when it ends.
 */
export const browserTest = test.extend<{ chromiumOfFile: Browser; browser: Browser }>({
  chromiumOfFile: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        await use(browser);
      } finally {
        await browser.close();
      }
    },
    { scope: 'file' },
  ],
  browser: async ({ chromiumOfFile }, use) => {
    try {
      await use(chromiumOfFile);
    } finally {
      await Promise.all(chromiumOfFile.contexts().map((context) => context.close()));
    }
  },
});
