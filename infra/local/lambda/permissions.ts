import { resourcesOfType, type CfnTemplate } from '../cloud-assembly';
import type { Resolve } from '../intrinsics';

/**
 * Functions' resource policies (AWS::Lambda::Permission): which AWS service may invoke a function
 * from which source — API Gateway for the API's methods and authorizer, EventBridge for a rule's
 * targets. The local gateway and event bus ask before they invoke, as the services are checked in AWS.
 */
interface Permission {
  functionArn: string;
  principal: string;
  sourceArn?: RegExp;
  sourceAccount?: string;
}

const glob = (pattern: string) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

export function lambdaPermissions(template: CfnTemplate, resolve: Resolve, functionArnOf: (nameOrArn: string) => string | undefined) {
  const permissions: Permission[] = resourcesOfType(template, 'AWS::Lambda::Permission').flatMap(([, resource]) => {
    const properties = resource.Properties ?? {};
    const functionArn = functionArnOf(String(resolve(properties.FunctionName)));
    if (!functionArn || !['lambda:InvokeFunction', 'lambda:*'].includes(String(properties.Action))) return [];
    return [
      {
        functionArn,
        principal: String(properties.Principal),
        ...(properties.SourceArn ? { sourceArn: glob(String(resolve(properties.SourceArn))) } : {}),
        ...(properties.SourceAccount ? { sourceAccount: String(resolve(properties.SourceAccount)) } : {}),
      },
    ];
  });
  return {
    /** Whether `principal` (e.g. apigateway.amazonaws.com) may invoke the function on behalf of `sourceArn`. */
    mayInvoke(functionArn: string, principal: string, sourceArn: string): boolean {
      return permissions.some(
        (permission) => permission.functionArn === functionArn && permission.principal === principal && (!permission.sourceArn || permission.sourceArn.test(sourceArn)),
      );
    },
  };
}

export type LambdaPermissions = ReturnType<typeof lambdaPermissions>;
