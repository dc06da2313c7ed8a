import { createRequire } from 'node:module';
import path from 'node:path';
import { version as esbuildVersion } from 'esbuild';
import { runEsbuildDirectly } from '../../../../infra/constructs/local-bundling';

const require = createRequire(import.meta.url);
const { Bundling } = require(path.join(path.dirname(require.resolve('aws-cdk-lib/aws-lambda-nodejs')), 'lib', 'bundling.js')) as { Bundling: { esbuildInstallation?: unknown } };

describe('runEsbuildDirectly (the local synthesis)', () => {
  it('makes NodejsFunction run the esbuild on the PATH (not npx --no-install esbuild), of the version the project has', () => {
    // Prepare: what CDK detects by itself is a workspace package, run through npx
    Bundling.esbuildInstallation = undefined;

    // Act
    runEsbuildDirectly();

    // Assess
    expect(Bundling.esbuildInstallation).toEqual({ isWorkspacePackage: false, version: esbuildVersion });
  });
});
