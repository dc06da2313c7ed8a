import { Template } from 'aws-cdk-lib/assertions';
import { MailwrightStack } from '../../infra/stack';
import type { CfnTemplate } from '../../infra/local/iam/policies';
import { assertionApp, idAt } from './infra-template';
import { ACCOUNT, fixtureResolver, REGION } from './local-iam-fixture';

/** The stack as `cdk synth` builds it, bundling skipped, for the IAM tests. */
export function synthesize() {
  const template = Template.fromStack(new MailwrightStack(assertionApp(), 'Mailwright'));
  const json = template.toJSON() as CfnTemplate;
  return { template, json, resolve: fixtureResolver(json) };
}

/** The ARN the fixture gives the execution role of the function at construct path `<name>/Resource`. */
export function roleOf(template: Template, json: CfnTemplate, name: string): string {
  const role = json.Resources[idAt(template, 'AWS::Lambda::Function', `${name}/Resource`)]!.Properties!.Role as { 'Fn::GetAtt': [string, string] };
  return `arn:aws:iam::${ACCOUNT}:role/${role['Fn::GetAtt'][0]}`;
}

/** The fixture's ARN and URL of the queue at construct path `<name>/Resource`. */
export function queueOf(template: Template, name: string) {
  const id = idAt(template, 'AWS::SQS::Queue', `${name}/Resource`);
  return { arn: `arn:aws:sqs:${REGION}:${ACCOUNT}:${id}`, url: `http://127.0.0.1:9324/${ACCOUNT}/${id}` };
}
