import { watch } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Calls `onChange` after sources the deployment is built from change — functions/, shared/ and
 * infra/ (not the local stack itself, which needs a restart) — once per burst of saves, never two
 * at a time.
 */
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const QUIET_MS = 300;

export function watchSources(onChange: () => Promise<void>): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = onChange().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  };
  const watchers = ['functions', 'shared', 'infra'].map((folder) =>
    watch(path.join(projectRoot, folder), { recursive: true }, (_, file) => {
      if (!file || file.startsWith('local/') || file.includes('node_modules') || !/\.(ts|tsx|mjs|js|json|css|html)$/.test(file)) return;
      clearTimeout(timer);
      timer = setTimeout(run, QUIET_MS);
    }),
  );
  return async () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
    await running;
  };
}
