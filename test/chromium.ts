import type { Browser, Page } from 'playwright-core';

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
