import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const API = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  // The api server serves dist/ on the same port with an SPA fallback: absolute asset paths.
  base: '/',
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': { target: API, changeOrigin: false },
      '/auth-api': { target: API, changeOrigin: false },
      '/healthz': { target: API, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API, changeOrigin: false },
      '/auth-api': { target: API, changeOrigin: false },
      '/healthz': { target: API, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Worker threads start faster than the default child processes: 480 s instead of 581 s for the 343 tests on
    // this 2-core machine under the same load (docs/benchmarks.md). Each file still gets its own environment.
    pool: 'threads',
    restoreMocks: true,
    unstubGlobals: true,
    // Typing into forms with userEvent is slow on a 2-core machine that is also running the api's tests; a test
    // that is slow is not wrong.
    testTimeout: 15_000,
  },
});
