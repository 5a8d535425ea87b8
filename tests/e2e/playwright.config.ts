import { defineConfig } from '@playwright/test';

// Runs against the real api + worker started by run.sh, in Debian's Chromium (Playwright cannot download
// browsers on these machines).
export default defineConfig({
  testDir: './specs',
  // A whole spec's budget. The test command runs the specs beside the Rust tests, the soak and the fuzz run on a
  // 2-core machine, where a spec that takes 6 s alone has taken over 60 s.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // A spec that fails once and passes on its retry is reported as flaky (the test command prints its name at the
  // end), not hidden: a stop's CI run failed a browser spec that ten runs before and after it passed, with nothing
  // left to say which. A spec that fails twice fails the run.
  retries: 1,
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080',
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
});
