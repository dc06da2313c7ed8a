import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCAL_SYNTH_CONTEXT } from '../../constructs/local-bundling';

/**
 * Synthesizes the CDK app offline — infra/app.ts, as `npm run synth` runs it, cdk-nag included —
 * into `outdir`, with cdk.json's context plus `context`. Function bundles are kept in one cache
 * folder shared by every local stack, outside node_modules so that `npm ci` keeps it
 * (`$XDG_CACHE_HOME/mailwright/assets`, by default `~/.cache/mailwright/assets`): each cached
 * asset is linked into the assembly before synthesis, so CDK bundles only functions whose inputs
 * changed (their asset hash derives from them: infra/constructs/bundle-hash.ts; CDK's folder name
 * also covers the bundling options, the checkout's path among them, so clones in other folders
 * bundle their own). The bundles CDK does make run esbuild without npx in front of it
 * (infra/constructs/local-bundling.ts).
 */
const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const cacheDir = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'mailwright', 'assets');
/** Cached bundles no assembly has used for this long are removed. */
const CACHE_TTL_MS = 24 * 3600 * 1000;

export interface SynthResult {
  directory: string;
  /** Functions CDK bundled in this synthesis (the rest came from the cache). */
  bundled: number;
  seconds: number;
}

export async function synthesize(outdir: string, context: Record<string, unknown>): Promise<SynthResult> {
  const started = performance.now();
  mkdirSync(outdir, { recursive: true });
  mkdirSync(cacheDir, { recursive: true });
  for (const name of readdirSync(cacheDir)) {
    const link = path.join(outdir, name);
    if (name.startsWith('asset.') && !existsSync(link)) {
      rmSync(link, { force: true }); // a dangling link to a pruned bundle
      symlinkSync(path.join(cacheDir, name), link, 'dir');
    }
  }
  const cdkJson = JSON.parse(readFileSync(path.join(projectRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  const output = await run([path.join(projectRoot, 'node_modules/tsx/dist/cli.mjs'), path.join(projectRoot, 'infra/app.ts')], {
    ...process.env,
    // The esbuild CDK runs without npx: the project's own, found first.
    PATH: [path.join(projectRoot, 'node_modules/.bin'), process.env.PATH].filter(Boolean).join(path.delimiter),
    CDK_OUTDIR: outdir,
    // As the CDK CLI does by default: construct paths and asset locations in the metadata (local names follow the paths).
    CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:enable-path-metadata': true, 'aws:cdk:enable-asset-metadata': true, ...cdkJson.context, [LOCAL_SYNTH_CONTEXT]: true, ...context }),
  });
  const bundled = (output.match(/Bundling asset /g) ?? []).length;
  keepInCache(outdir);
  return { directory: outdir, bundled, seconds: (performance.now() - started) / 1000 };
}

/** Moves freshly bundled assets into the cache (linking them back) and prunes what has gone unused. */
function keepInCache(outdir: string) {
  const now = new Date();
  for (const name of readdirSync(outdir)) {
    if (!name.startsWith('asset.') || name.endsWith('-building')) continue;
    const asset = path.join(outdir, name);
    const cached = path.join(cacheDir, name);
    if (!lstatSync(asset).isSymbolicLink()) {
      try {
        renameSync(asset, cached);
      } catch {
        // Another stack cached the same bundle first: the two are the same inputs, keep that one.
        rmSync(asset, { recursive: true, force: true });
      }
      symlinkSync(cached, asset, 'dir');
    }
    if (existsSync(cached)) utimesSync(cached, now, now);
  }
  for (const name of readdirSync(cacheDir)) {
    const cached = path.join(cacheDir, name);
    if (now.getTime() - statSync(cached).mtimeMs > CACHE_TTL_MS) rmSync(cached, { recursive: true, force: true });
  }
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: string[] = [];
    child.stdout.on('data', (chunk) => chunks.push(String(chunk)));
    child.stderr.on('data', (chunk) => chunks.push(String(chunk)));
    child.on('error', reject);
    child.on('exit', (code) => {
      const output = chunks.join('');
      if (code === 0) resolve(output);
      else reject(new Error(`Synthesizing the CDK app failed (exit ${code}):\n${output}`));
    });
  });
}
