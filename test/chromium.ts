/** Debian's Chromium for the browser tests (`.ci/run` installs it; without it they skip), and how it is started. */
export const CHROMIUM = '/usr/bin/chromium';
/** Headless, and nothing that reaches the network on its own. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
