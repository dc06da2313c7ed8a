import { watch } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Calls `onChange` with the changed files after sources the deployment is built from change —
 * functions/, shared/ and infra/ (not the local stack itself, which needs a restart) — once per
 * burst of saves, never two at a time.
 */
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const QUIET_MS = 300;

export function watchSources(onChange: (changed: string[]) => Promise<void>): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const changed = new Set<string>();
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    const files = [...changed];
    changed.clear();
    running = onChange(files).finally(() => {
      running = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  };
  const watchers = ['functions', 'shared', 'infra'].map((folder) =>
    watch(path.join(projectRoot, folder), { recursive: true }, (_, file) => {
      // The dashboard's build output is made from its sources, which are watched themselves.
      if (!file || file.startsWith('local/') || file.startsWith('dashboard/dist/') || file.includes('node_modules') || !/\.(ts|tsx|mjs|js|json|css|html|svg)$/.test(file)) return;
      changed.add(path.join(folder, file));
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
