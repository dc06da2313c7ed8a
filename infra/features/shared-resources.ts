import { CfnOutput, Duration, RemovalPolicy, type Stack, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { ConfigurationSet, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { tableSchema } from '../../shared/db/schema';
import { deadLetterQueue } from '../constructs/dead-letter-queue';
import { pascal } from '../names';
import { dlqName, queues } from '../queues';

/** What several features use: the data, the queues, the scheduler, SES's configuration set and the generated secrets. */
export interface SharedResources {
  /** RETAIN unless the stack is a throwaway (-c throwaway=true): what the features' own data and logs get too. */
  removalPolicy: RemovalPolicy;
  table: Table;
  payloadBucket: Bucket;
  /** The queue of infra/queues.ts by its name. */
  queue(name: string): Queue;
  /** One-time schedules (campaigns, workflow delays) into queues: the group and the role it delivers with. */
  scheduler: { group: ScheduleGroup; role: Role };
  configurationSet: ConfigurationSet;
  /** Signs the dashboard's access tokens (the dashboard function signs, the authorizer checks). */
  accessTokenKey: Secret;
  /** Encrypts webhook endpoints' signing secrets in the table. */
  webhookSecretsKey: Secret;
  /** Signs one-click unsubscribe links (campaign mail and MARKETING workflow mail). */
  unsubscribeSecret: Secret;
}

/**
 * The stack's shared resources, made in the stack's own scope (as every feature makes its
 * resources) so their logical ids are those of the deployed stack: a table, bucket, queue or
 * secret under a new id would be replaced, and its data lost.
 */
export function addSharedResources(stack: Stack, { retainData }: { retainData: boolean }): SharedResources {
  const removalPolicy = retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

  // ---- Data -------------------------------------------------------------------------------
  const table = new Table(stack, 'Table', {
    partitionKey: { name: tableSchema.partitionKey, type: AttributeType.STRING },
    sortKey: { name: tableSchema.sortKey, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: tableSchema.timeToLiveAttribute,
    stream: StreamViewType.NEW_AND_OLD_IMAGES,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: retainData },
    removalPolicy,
  });
  if (!retainData) {
    Validations.of(table).acknowledge({ id: 'AwsSolutions-DDB3', reason: 'Throwaway stacks (-c throwaway=true) are trials deleted with their data; the default stack has point-in-time recovery' });
  }
  for (const index of tableSchema.globalSecondaryIndexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.indexName,
      partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
      sortKey: { name: index.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
  }

  // S3 server access logs of the payload bucket (who read or wrote which object), kept 90 days.
  const accessLogsBucket = new Bucket(stack, 'AccessLogsBucket', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    encryption: BucketEncryption.S3_MANAGED, // the only encryption S3 log delivery supports
    lifecycleRules: [{ expiration: Duration.days(90) }],
    removalPolicy,
    autoDeleteObjects: !retainData,
  });
  Validations.of(accessLogsBucket).acknowledge({ id: 'AwsSolutions-S1', reason: 'The access-log bucket itself: logging it would log its own log deliveries' });

  const payloadBucket = new Bucket(stack, 'PayloadBucket', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    encryption: BucketEncryption.S3_MANAGED,
    lifecycleRules: [
      { expiration: Duration.days(7), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      // Import files are read once (a job finishes within hours); export files are downloaded
      // through 1-hour URLs, which GET /contacts/exports/{id} renews while the file is kept.
      { id: 'ImportFiles', prefix: 'imports/', expiration: Duration.days(3) },
      { id: 'ExportFiles', prefix: 'exports/', expiration: Duration.days(2) },
    ],
    serverAccessLogsBucket: accessLogsBucket,
    serverAccessLogsPrefix: 'payload-bucket/',
    removalPolicy,
    autoDeleteObjects: !retainData,
  });

  // ---- Queues: each with its DLQ and an alarm on anything landing there -----------------------
  const queuesByName = new Map<string, Queue>();
  for (const spec of queues) {
    const dlq = deadLetterQueue(stack, pascal(dlqName(spec.name)), `Messages in ${dlqName(spec.name)}: ${spec.name} messages failed ${spec.maxReceiveCount} times`);
    const queue = new Queue(stack, `${pascal(spec.name)}Queue`, {
      visibilityTimeout: Duration.seconds(spec.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: dlq, maxReceiveCount: spec.maxReceiveCount },
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    new CfnOutput(stack, `${pascal(spec.name)}QueueUrl`, { value: queue.queueUrl });
    queuesByName.set(spec.name, queue);
  }
  const queue = (name: string) => {
    const found = queuesByName.get(name);
    if (!found) throw new Error(`No queue ${name} in infra/queues.ts`);
    return found;
  };

  // ---- EventBridge Scheduler: one-time schedules (campaigns, workflow delays) into queues -------
  // Functions create schedules in this group only and pass this role only (bindScheduler); the
  // role may do nothing but send to the queues those functions name as targets.
  const scheduleGroup = new ScheduleGroup(stack, 'ScheduleGroup', { removalPolicy: RemovalPolicy.DESTROY });
  const schedulerRole = new Role(stack, 'SchedulerRole', {
    description: 'Assumed by EventBridge Scheduler to deliver Mailwright schedules to their queues',
    assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': stack.account } } }),
  });
  new CfnOutput(stack, 'ScheduleGroupName', { value: scheduleGroup.scheduleGroupName });

  // ---- SES: every email goes through this configuration set ---------------------------------
  // A custom open/click tracking domain: `-c trackingDomain=track.example.com` (README "Events").
  const trackingDomain = stack.node.tryGetContext('trackingDomain') as string | undefined;
  const configurationSet = new ConfigurationSet(stack, 'ConfigurationSet', {
    configurationSetName: 'mailwright',
    ...(trackingDomain ? { customTrackingRedirectDomain: trackingDomain } : {}),
  });
  // SES publishes to the default bus only; publishing OPEN and CLICK switches tracking on.
  configurationSet.addEventDestination('EventBridge', {
    destination: EventDestination.eventBus(EventBus.fromEventBusName(stack, 'DefaultBus', 'default')),
    events: [
      EmailSendingEvent.SEND,
      EmailSendingEvent.DELIVERY,
      EmailSendingEvent.BOUNCE,
      EmailSendingEvent.COMPLAINT,
      EmailSendingEvent.REJECT,
      EmailSendingEvent.OPEN,
      EmailSendingEvent.CLICK,
      EmailSendingEvent.RENDERING_FAILURE,
      EmailSendingEvent.DELIVERY_DELAY,
    ],
  });

  // ---- Generated secrets ---------------------------------------------------------------------
  // Access tokens are signed (HMAC) with this key by the dashboard function and checked by the authorizer.
  const accessTokenKey = new Secret(stack, 'AccessTokenSigningKey', {
    description: 'Signs the dashboard\'s 5-minute access tokens',
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
    removalPolicy,
  });
  Validations.of(accessTokenKey).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'Rotating it only signs everyone out of the dashboard for a refresh; redeploying with a new value is the rotation' });
  // Endpoint signing secrets are encrypted in the table with this key (AES-256-GCM).
  const webhookSecretsKey = new Secret(stack, 'WebhookSecretsKey', {
    description: 'Encrypts the webhook endpoints\' signing secrets stored in the table',
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
    removalPolicy,
  });
  Validations.of(webhookSecretsKey).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'An encryption key for data at rest: rotating it would leave the stored ciphertexts unreadable; rotate webhook secrets per endpoint instead (POST /webhooks/{id}/rotate-secret)' });
  // Signs the one-click unsubscribe links in marketing mail (HMAC).
  const unsubscribeSecret = new Secret(stack, 'UnsubscribeSigningSecret', {
    description: 'Signs the one-click unsubscribe links in marketing mail',
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
    removalPolicy,
  });
  Validations.of(unsubscribeSecret).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'Rotating the signing secret would break the unsubscribe links in every mail already sent' });

  new CfnOutput(stack, 'TableName', { value: table.tableName });
  new CfnOutput(stack, 'PayloadBucketName', { value: payloadBucket.bucketName });
  return {
    removalPolicy,
    table,
    payloadBucket,
    queue,
    scheduler: { group: scheduleGroup, role: schedulerRole },
    configurationSet,
    accessTokenKey,
    webhookSecretsKey,
    unsubscribeSecret,
  };
}
