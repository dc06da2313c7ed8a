import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { buildSync, version as esbuildVersion } from 'esbuild';

/**
 * The asset hash of a function bundle, from what goes into it: every source file esbuild reads
 * for the entry (one dependency scan of all functions/<group>/handler.ts per synth), the bundling
 * options and esbuild's version. CDK skips bundling an asset whose folder already exists in the
 * cloud assembly (asset.<hash>), so an unchanged function is not bundled again — which is what
 * lets the local stack synthesize on every start and after every edit (infra/local/template/synth.ts).
 * The default for NodejsFunction (the hash of its output) can only be known after bundling.
 */
export function bundleAssetHash(projectRoot: string, entry: string, options: unknown, extraFiles: readonly string[]): string {
  const inputs = inputsOf(projectRoot, entry);
  const hash = createHash('sha256').update(`esbuild ${esbuildVersion}\n${JSON.stringify(options)}\n`);
  for (const file of [...inputs, ...extraFiles].sort()) hash.update(`${path.relative(projectRoot, file)} ${fileHash(file)}\n`);
  return hash.digest('hex');
}

let scanned: { projectRoot: string; inputs: Map<string, string[]> } | undefined;
const fileHashes = new Map<string, string>();

function inputsOf(projectRoot: string, entry: string): string[] {
  if (scanned?.projectRoot !== projectRoot) scanned = { projectRoot, inputs: scan(projectRoot) };
  const inputs = scanned.inputs.get(path.resolve(entry));
  if (!inputs) throw new Error(`No function entry ${entry} among functions/*/handler.ts`);
  return inputs;
}

/** One esbuild pass over every function entry, writing nothing: the files each bundle reads. */
function scan(projectRoot: string): Map<string, string[]> {
  const functionsDir = path.join(projectRoot, 'functions');
  const entries = readdirSync(functionsDir)
    .map((group) => path.join(functionsDir, group, 'handler.ts'))
    .filter((file) => existsSync(file));
  const { metafile } = buildSync({
    absWorkingDir: projectRoot,
    entryPoints: entries,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    mainFields: ['module', 'main'],
    outdir: 'scan',
    logLevel: 'silent',
  });
  const inputs = new Map<string, string[]>();
  for (const output of Object.values(metafile.outputs)) {
    if (!output.entryPoint) continue;
    const files = Object.keys(output.inputs)
      .map((input) => path.resolve(projectRoot, input))
      .filter((file) => existsSync(file));
    inputs.set(path.resolve(projectRoot, output.entryPoint), files);
  }
  return inputs;
}

function fileHash(file: string): string {
  let hash = fileHashes.get(file);
  if (!hash) {
    hash = createHash('sha1').update(readFileSync(file)).digest('hex');
    fileHashes.set(file, hash);
  }
  return hash;
}
