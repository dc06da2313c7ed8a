import { CreateTableCommand, DynamoDBClient, ResourceInUseException, waitUntilTableExists, type GlobalSecondaryIndex } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { tableSchema } from '../../shared/db/schema';
import { dlqName, queues } from '../queues';

/** Creates the table, every queue with its DLQ, and the payload bucket; safe to run on every start. */
export async function createResources(names: { tableName: string; bucketName: string }): Promise<Record<string, string>> {
  await createTable(names.tableName);
  await new S3Client({ forcePathStyle: true })
    .send(new CreateBucketCommand({ Bucket: names.bucketName }))
    .catch((error: Error) => {
      if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(error.name)) throw error;
    });
  return createQueues();
}

async function createTable(tableName: string): Promise<void> {
  const dynamoDb = new DynamoDBClient({});
  const keyNames = [tableSchema.partitionKey, tableSchema.sortKey, ...tableSchema.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey])];
  const indexes: GlobalSecondaryIndex[] = tableSchema.globalSecondaryIndexes.map((index) => ({
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  }));
  try {
    await dynamoDb.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: keyNames.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: tableSchema.partitionKey, KeyType: 'HASH' },
          { AttributeName: tableSchema.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: indexes,
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
      }),
    );
    await waitUntilTableExists({ client: dynamoDb, maxWaitTime: 60 }, { TableName: tableName });
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
}

/** Returns the queue URLs by their environment variable (SEND_QUEUE_URL…). */
async function createQueues(): Promise<Record<string, string>> {
  const sqs = new SQSClient({});
  const urls: Record<string, string> = {};
  for (const queue of queues) {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: dlqName(queue.name), Attributes: { MessageRetentionPeriod: String(14 * 24 * 3600) } }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
    const created = await sqs.send(
      new CreateQueueCommand({
        QueueName: queue.name,
        Attributes: {
          VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: queue.maxReceiveCount }),
        },
      }),
    );
    urls[queue.envVar] = created.QueueUrl!;
    // Schedules name their target queue by ARN (WORKFLOW_QUEUE_ARN…), as in the stack.
    const target = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }));
    urls[queue.envVar.replace(/_URL$/, '_ARN')] = target.Attributes!.QueueArn!;
    urls[`${queue.envVar.replace(/_URL$/, '')}_DLQ_URL`] = dlq.QueueUrl!;
  }
  return urls;
}
