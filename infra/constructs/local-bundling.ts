import { createRequire } from 'node:module';
import path from 'node:path';
import { version as esbuildVersion } from 'esbuild';

/**
 * The local stack's synthesis (infra/local/template/synth.ts) sets this context; `cdk deploy` and
 * `npm run synth` never do, so their bundling stays CDK's own.
 */
export const LOCAL_SYNTH_CONTEXT = 'mailwright:localSynth';

const require = createRequire(import.meta.url);
let applied = false;

/**
 * Runs esbuild itself for each bundle instead of through `npx --no-install esbuild`, which is how
 * NodejsFunction runs an esbuild it finds in the project's node_modules: npx starts npm (about
 * 0.3–0.5 s of CPU) before every one of the 31 bundles, a third of a fresh start's bundling. The
 * esbuild binary, its arguments and so its output are the same; the synthesis puts
 * node_modules/.bin first on the PATH. CDK keeps the installation it detects in a static field of
 * its Bundling class; when that class is not where this expects it (another aws-cdk-lib), CDK's
 * own runner stays.
 */
export function runEsbuildDirectly(): void {
  if (applied) return;
  applied = true;
  try {
    const bundlingModule = path.join(path.dirname(require.resolve('aws-cdk-lib/aws-lambda-nodejs')), 'lib', 'bundling.js');
    const { Bundling } = require(bundlingModule) as { Bundling?: { esbuildInstallation?: unknown } };
    if (Bundling && 'clearEsbuildInstallationCache' in Bundling) Bundling.esbuildInstallation = { isWorkspacePackage: false, version: esbuildVersion };
  } catch {
    // CDK's own runner.
  }
}
