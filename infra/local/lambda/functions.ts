import { resourcesOfType, type CloudAssembly } from '../template/cloud-assembly';
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
    const variables = (resolve(properties.Environment?.Variables ?? {}) as Record<string, unknown>) ?? {};
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
        ...Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, String(value)])),
        ...runtimeEnvironment({ name, memoryMb, taskRoot }, roleCredentials(roleArn)),
        ...endpoints,
      },
    });
  }
  return functions;
}
