// The SES worker's entry: worker threads do not inherit the TypeScript loader, so load it here.
import { tsImport } from 'tsx/esm/api';

await tsImport('./ses-worker.ts', import.meta.url);
