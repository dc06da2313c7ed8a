import type { Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../shared/http/routes';
import { queues } from '../../infra/queues';
import { type Resource, idAt, stackTemplate } from '../support/infra-template';

describe('imports and exports infrastructure', () => {
  let template: Template;
  let resources: Record<string, Resource>;
  let bucketId: string;

  /** Every policy statement of a function's role. */
  const statementsOf = (fnPath: string) => {
    const fnId = idAt(template, 'AWS::Lambda::Function', `${fnPath}/Resource`);
    const roleId = resources[fnId]!.Properties.Role['Fn::GetAtt'][0];
    return Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: any) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as any[]);
  };
  /** The S3 statements of a function, as `action → object ARN suffix`. */
  const s3Grants = (fnPath: string) =>
    statementsOf(fnPath)
      .filter((statement) => [statement.Action].flat().some((action: string) => action.startsWith('s3:')))
      .flatMap((statement) => [statement.Action].flat().map((action: string) => {
        const resource = statement.Resource;
        expect(resource['Fn::Join'][1][0]).toEqual({ 'Fn::GetAtt': [bucketId, 'Arn'] });
        return `${action} ${resource['Fn::Join'][1][1]}`;
      }))
      .sort();

  beforeAll(() => {
    template = stackTemplate();
    resources = template.toJSON().Resources;
    bucketId = idAt(template, 'AWS::S3::Bucket', 'PayloadBucket/Resource');
  });

  test('the seven routes are served by the transfers function; of them only POST /contacts/imports takes CSV bodies raw', () => {
    const transferRoutes = routes.filter((route) => route.group === 'transfers');
    expect(transferRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      ['GET /contacts/exports', 'GET /contacts/exports/{id}', 'GET /contacts/imports', 'GET /contacts/imports/{id}', 'POST /contacts/exports', 'POST /contacts/imports', 'POST /contacts/imports/{id}/start'].sort(),
    );
    for (const route of transferRoutes) expect(route.keys).toEqual(['secret']);
    expect(transferRoutes.filter((route) => route.rawBodyTypes).map((route) => [route.method, route.path, route.rawBodyTypes])).toEqual([['POST', '/contacts/imports', ['text/csv']]]);
    const fnId = idAt(template, 'AWS::Lambda::Function', 'TransfersFunction/Resource');
    const methods = Object.values(resources).filter((resource) => resource.Type === 'AWS::ApiGateway::Method' && JSON.stringify(resource.Properties.Integration ?? {}).includes(fnId));
    expect(methods).toHaveLength(7);
  });

  test('/contacts/imports and /contacts/exports are static resources beside /contacts/{id}', () => {
    const apiResources = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::ApiGateway::Resource');
    const byPart = (part: string) => apiResources.filter(([, resource]) => resource.Properties.PathPart === part);
    const [[contactsId]] = byPart('contacts') as [[string, Resource]];
    for (const part of ['imports', 'exports', '{id}']) {
      const found = byPart(part).filter(([, resource]) => resource.Properties.ParentId?.Ref === contactsId);
      expect(found).toHaveLength(1);
    }
  });

  test('imports and exports queues, each with its DLQ and alarm, feed their workers with bounded concurrency and partial failures', () => {
    for (const [name, group, timeout] of [['contact-imports', 'ContactImports', 300], ['contact-exports', 'ContactExports', 900]] as const) {
      const spec = queues.find((queue) => queue.name === name)!;
      const queueId = idAt(template, 'AWS::SQS::Queue', `${group}Queue/Resource`);
      const dlqId = idAt(template, 'AWS::SQS::Queue', `${group}Dlq/Resource`);
      const fnId = idAt(template, 'AWS::Lambda::Function', `${group}Function/Resource`);
      expect(resources[queueId]!.Properties).toMatchObject({
        VisibilityTimeout: spec.visibilityTimeoutSeconds,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: spec.maxReceiveCount },
      });
      expect(resources[fnId]!.Properties.Timeout).toBe(timeout);
      // A crashed invocation's message comes back only after the function surely stopped.
      expect(spec.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * timeout);
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fnId },
        EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
        BatchSize: 1,
        ScalingConfig: { MaximumConcurrency: 2 },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const alarms = Object.values(resources).filter((resource) => resource.Type === 'AWS::CloudWatch::Alarm' && JSON.stringify(resource.Properties.Dimensions ?? resource.Properties.Metrics ?? {}).includes(dlqId));
      expect(alarms).toHaveLength(1);
    }
    // The import worker queues its own continuation; the API queues both kinds of jobs.
    const importsQueueId = idAt(template, 'AWS::SQS::Queue', 'ContactImportsQueue/Resource');
    const exportsQueueId = idAt(template, 'AWS::SQS::Queue', 'ContactExportsQueue/Resource');
    const env = (path: string) => resources[idAt(template, 'AWS::Lambda::Function', `${path}/Resource`)]!.Properties.Environment.Variables;
    expect(env('ContactImportsFunction')).toMatchObject({ IMPORT_QUEUE_URL: { Ref: importsQueueId }, PAYLOAD_BUCKET: { Ref: bucketId } });
    expect(env('TransfersFunction')).toMatchObject({ IMPORT_QUEUE_URL: { Ref: importsQueueId }, EXPORT_QUEUE_URL: { Ref: exportsQueueId }, PAYLOAD_BUCKET: { Ref: bucketId } });
    expect(env('ContactExportsFunction')).toMatchObject({ PAYLOAD_BUCKET: { Ref: bucketId } });
  });

  test('bucket permissions are scoped to the imports/ and exports/ prefixes, with only the actions each function needs', () => {
    expect(s3Grants('TransfersFunction')).toEqual(['s3:GetObject /exports/*', 's3:GetObject /imports/*', 's3:PutObject /imports/*']);
    expect(s3Grants('ContactImportsFunction')).toEqual(['s3:GetObject /imports/*']);
    expect(s3Grants('ContactExportsFunction')).toEqual(['s3:AbortMultipartUpload /exports/*', 's3:PutObject /exports/*']);
  });

  test('the payload bucket expires import and export files by lifecycle rules on their prefixes', () => {
    const rules = resources[bucketId]!.Properties.LifecycleConfiguration.Rules as any[];
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Id: 'ImportFiles', Prefix: 'imports/', ExpirationInDays: 3, Status: 'Enabled' }),
        expect.objectContaining({ Id: 'ExportFiles', Prefix: 'exports/', ExpirationInDays: 2, Status: 'Enabled' }),
      ]),
    );
  });
});
