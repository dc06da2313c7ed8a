import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resourcesOfType, type CfnResource, type CloudAssembly } from '../template/cloud-assembly';
import { roleCredentials } from '../iam/credentials';
import type { Resolve } from '../template/intrinsics';
import { localFunctionName } from '../template/resources';
import { runtimeEnvironment, type LocalFunction } from './runner';

/**
 * Every AWS::Lambda::Function of the template as the local stack runs it: its bundle, Handler,
 * Timeout, MemorySize and role, and exactly its template environment (intrinsics resolved) plus
 * the runtime's variables and the AWS_ENDPOINT_URL_* that point the SDK at the local AWS.
 */
export function localFunctions(assembly: CloudAssembly, resolve: Resolve, endpoints: Record<string, string>): Map<string, LocalFunction> {
  const functions = new Map<string, LocalFunction>();
  for (const [logicalId, resource] of resourcesOfType(assembly.template, 'AWS::Lambda::Function')) {
    const properties = resource.Properties ?? {};
    const name = localFunctionName(resource, logicalId);
    const taskRoot = assembly.assetDirectory(properties.Code?.S3Key);
    const memoryMb = Number(properties.MemorySize ?? 128);
    const roleArn = String(resolve(properties.Role));
    const variables = templateVariables(properties, resolve);
    functions.set(logicalId, {
      logicalId,
      name,
      arn: String(resolve({ 'Fn::GetAtt': [logicalId, 'Arn'] })),
      handler: String(properties.Handler),
      taskRoot,
      timeoutSeconds: Number(properties.Timeout ?? 3),
      memoryMb,
      roleArn,
      ...(properties.DeadLetterConfig?.TargetArn ? { deadLetterArn: String(resolve(properties.DeadLetterConfig.TargetArn)) } : {}),
      environment: {
        ...variables,
        ...runtimeEnvironment({ name, memoryMb, taskRoot }, roleCredentials(roleArn)),
        ...endpoints,
      },
    });
  }
  return functions;
}

/** A function's template environment, intrinsics resolved: what its code reads, nothing the runtime adds. */
function templateVariables(properties: NonNullable<CfnResource['Properties']>, resolve: Resolve): Record<string, string> {
  const variables = (resolve(properties.Environment?.Variables ?? {}) as Record<string, unknown>) ?? {};
  return Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, String(value)]));
}

/**
 * The file in the data folder where a start leaves every function's template environment,
 * resolved (by function name; secrets included, so mode 600 like secrets.json): operator tools
 * that run a function's code in their own process — the benches — take their environment from it
 * (readFunctionEnvironments) rather than from a list of their own.
 */
export const FUNCTION_ENVIRONMENTS_FILE = 'function-environments.json';

export function writeFunctionEnvironments(dataDir: string, assembly: CloudAssembly, resolve: Resolve): void {
  const environments = Object.fromEntries(
    [...resourcesOfType(assembly.template, 'AWS::Lambda::Function')].map(([logicalId, resource]) => [localFunctionName(resource, logicalId), templateVariables(resource.Properties ?? {}, resolve)]),
  );
  writeFileSync(path.join(dataDir, FUNCTION_ENVIRONMENTS_FILE), `${JSON.stringify(environments, null, 2)}\n`, { mode: 0o600 });
}

/** What writeFunctionEnvironments left in a running (or stopped) stack's data folder. */
export function readFunctionEnvironments(dataDir: string): Record<string, Record<string, string>> {
  return JSON.parse(readFileSync(path.join(dataDir, FUNCTION_ENVIRONMENTS_FILE), 'utf8')) as Record<string, Record<string, string>>;
}
