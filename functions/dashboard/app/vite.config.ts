import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * Built into functions/dashboard/dist, which the dashboard function bundles and serves.
 * base './': chunks load each other relative to their own URL, so the app works under any
 * prefix (/dashboard locally, /api/dashboard behind the stage); the function rewrites the few
 * relative URLs of index.html to absolute ones so deep links find them.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  // Vite 8 compiles JSX itself (no React plugin): the automatic runtime, no React import needed.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    // Flat: every file is one path segment under /dashboard/.
    assetsDir: '',
    // The polyfill would be inline script, which the Content-Security-Policy forbids.
    modulePreload: { polyfill: false },
    // Small assets are files too (no data: URLs the policy would have to allow).
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
    rolldownOptions: {
      // React Query marks its modules "use client" (for server components); one bundle for the browser has no use for it.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
