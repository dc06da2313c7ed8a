import type { Stack } from 'aws-cdk-lib';
import { variables } from '../../shared/config/variables';
import { queueConsumer } from '../constructs/consumers';
import type { Api } from './api';
import type { SharedResources } from './shared-resources';

/**
 * Contact imports and exports (README "Imports and exports"): the transfers function takes jobs
 * and hands out upload and download URLs, a worker per queue runs them; each touches the payload
 * bucket only under its own prefix (imports/, exports/), with the named actions only.
 */
export function addImportsExports(stack: Stack, resources: SharedResources, api: Api): void {
  const { table, payloadBucket, removalPolicy } = resources;
  const importQueue = resources.queue('contact-imports');
  const exportQueue = resources.queue('contact-exports');
  api
    .function('transfers')
    .bindQueue(importQueue, variables.importQueueUrl)
    .bindQueue(exportQueue, variables.exportQueueUrl)
    .bindBucketPrefix(payloadBucket, 'imports/', ['s3:GetObject', 's3:PutObject'])
    .bindBucketPrefix(payloadBucket, 'exports/', ['s3:GetObject']);
  queueConsumer(stack, 'contact-imports', importQueue, table, { logRemovalPolicy: removalPolicy })
    .bindQueue(importQueue, variables.importQueueUrl)
    .bindBucketPrefix(payloadBucket, 'imports/', ['s3:GetObject']);
  // An export that outlives one invocation queues its own continuation.
  queueConsumer(stack, 'contact-exports', exportQueue, table, { logRemovalPolicy: removalPolicy })
    .bindQueue(exportQueue, variables.exportQueueUrl)
    .bindBucketPrefix(payloadBucket, 'exports/', ['s3:PutObject', 's3:AbortMultipartUpload']);
}
