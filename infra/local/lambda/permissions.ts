import { ACCOUNT } from '../template/cloud-assembly';
import type { Authorizer } from '../iam/evaluate';

/**
 * Functions' resource policies (AWS::Lambda::Permission), as the services that invoke them are
 * checked in AWS: API Gateway for the API's methods and authorizer, EventBridge for a rule's
 * targets. Evaluated by the local IAM (infra/local/iam/evaluate.ts).
 */
export function lambdaPermissions(authorizer: Authorizer) {
  return {
    /** Whether `principal` (e.g. apigateway.amazonaws.com) may invoke the function on behalf of `sourceArn`. */
    async mayInvoke(functionArn: string, principal: string, sourceArn: string): Promise<boolean> {
      return (await authorizer.authorizeInvoke({ functionArn, principal, sourceArn, sourceAccount: ACCOUNT })).allowed;
    },
  };
}

export type LambdaPermissions = ReturnType<typeof lambdaPermissions>;
