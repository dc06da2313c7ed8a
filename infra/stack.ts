import { Annotations, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  Cors,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { ConfigurationSet, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { Construct } from 'constructs';
import { guardThresholdEnvironment, guardThresholdsFrom } from '../shared/campaigns/guard';
import { variables } from '../shared/config/variables';
import { tableSchema } from '../shared/db/schema';
import { deadLetterQueue } from './constructs/dead-letter-queue';
import { MailwrightFunction } from './constructs/mailwright-function';
import { addObservability } from './observability';
import { addStreamConsumers } from './constructs/stream-consumers';
import {
  AUTHORIZER_CACHE_TTL_SECONDS,
  gatewayResponseHeaders,
  gatewayResponses,
  gatewayResponseTemplate,
  type GatewayResponseSpec,
} from './gateway-responses';
import { dlqName, queues } from './queues';
import { SCALAR_BUNDLE } from '../shared/http/openapi/reference-page';
import { CORS_ALLOW_HEADERS, functionGroups, routes as routeTable, type FunctionGroup, type Route } from '../shared/http/routes';

export interface MailwrightStackProps extends StackProps {
  /** Keep the table (with point-in-time recovery) and the bucket when the stack goes. Default true. */
  retainData?: boolean;
  /** The route table to serve; only tests pass another one (default: shared/http/routes.ts). */
  routes?: readonly Route[];
}

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 1000;
export const DEFAULT_SEND_RATE_PER_SECOND = 14;
export const API_STAGE_NAME = 'api';
/** Queue consumers' timeout; each queue's visibility timeout is at least 6× this (AWS guidance). */
export const CONSUMER_TIMEOUT_SECONDS = 30;

const pascal = (name: string) => name.replace(/(^|[^a-zA-Z0-9])([a-zA-Z0-9])/g, (_, __, c: string) => c.toUpperCase());

/** DEFAULT_4XX / DEFAULT_5XX keep API Gateway's status, which no $context variable exposes. */
const representativeStatus = (spec: GatewayResponseSpec) => spec.statusCode ?? (spec.type === 'DEFAULT_5XX' ? 500 : 400);

export class MailwrightStack extends Stack {
  constructor(scope: Construct, id: string, props: MailwrightStackProps = {}) {
    super(scope, id, props);
    const retainData = props.retainData ?? true;
    const removalPolicy = retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    // ---- Data -------------------------------------------------------------------------------
    const table = new Table(this, 'Table', {
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
    const accessLogsBucket = new Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED, // the only encryption S3 log delivery supports
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy,
      autoDeleteObjects: !retainData,
    });
    Validations.of(accessLogsBucket).acknowledge({ id: 'AwsSolutions-S1', reason: 'The access-log bucket itself: logging it would log its own log deliveries' });

    const payloadBucket = new Bucket(this, 'PayloadBucket', {
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
      const dlq = deadLetterQueue(this, pascal(dlqName(spec.name)), `Messages in ${dlqName(spec.name)}: ${spec.name} messages failed ${spec.maxReceiveCount} times`);
      const queue = new Queue(this, `${pascal(spec.name)}Queue`, {
        visibilityTimeout: Duration.seconds(spec.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: dlq, maxReceiveCount: spec.maxReceiveCount },
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      new CfnOutput(this, `${pascal(spec.name)}QueueUrl`, { value: queue.queueUrl });
      queuesByName.set(spec.name, queue);
    }
    const sendQueue = queuesByName.get('send')!;

    // ---- EventBridge Scheduler: one-time schedules (campaigns, workflow delays) into queues -------
    // Functions create schedules in this group only and pass this role only (bindScheduler); the
    // role may do nothing but send to the queues those functions name as targets.
    const scheduleGroup = new ScheduleGroup(this, 'ScheduleGroup', { removalPolicy: RemovalPolicy.DESTROY });
    const schedulerRole = new Role(this, 'SchedulerRole', {
      description: 'Assumed by EventBridge Scheduler to deliver Mailwright schedules to their queues',
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': this.account } } }),
    });
    const scheduler = { group: scheduleGroup, role: schedulerRole };
    new CfnOutput(this, 'ScheduleGroupName', { value: scheduler.group.scheduleGroupName });

    // ---- SES: every email goes through this configuration set ---------------------------------
    // A custom open/click tracking domain: `-c trackingDomain=track.example.com` (README "Events").
    const trackingDomain = this.node.tryGetContext('trackingDomain') as string | undefined;
    const configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: 'mailwright',
      ...(trackingDomain ? { customTrackingRedirectDomain: trackingDomain } : {}),
    });
    // SES publishes to the default bus only; publishing OPEN and CLICK switches tracking on.
    configurationSet.addEventDestination('EventBridge', {
      destination: EventDestination.eventBus(EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
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

    // ---- Functions ---------------------------------------------------------------------------
    const rateLimitPerMinute = positiveInteger(this.node.tryGetContext('rateLimitPerMinute'), DEFAULT_RATE_LIMIT_PER_MINUTE, 'rateLimitPerMinute');
    const sendRatePerSecond = positiveInteger(this.node.tryGetContext('sendRatePerSecond'), DEFAULT_SEND_RATE_PER_SECOND, 'sendRatePerSecond');
    const functions = new Map<FunctionGroup, MailwrightFunction>();
    const readOnlyGroups = new Set<FunctionGroup>(['emails', 'analytics']);
    for (const group of functionGroups) {
      const fn = new MailwrightFunction(this, `${pascal(group)}Function`, {
        group,
        // On-demand segment evaluation reads whole audiences: up to API Gateway's 29 s, more memory (README "Segments").
        ...(group === 'segments' ? { timeout: Duration.seconds(29), memorySize: 1024 } : {}),
        // scrypt (N=2^17, 128 MiB) runs at the speed of the CPU share, which grows with memory (README "Dashboard accounts").
        ...(group === 'dashboard' || group === 'members' ? { memorySize: 1024 } : {}),
        // The reference page's renderer is served from a file, not bundled code (README "API contract").
        ...(group === 'docs' ? { bundledFiles: [SCALAR_BUNDLE] } : {}),
        // The dashboard's built app (npm run build:dashboard), served from files beside the code (README "Dashboard").
        ...(group === 'dashboard' ? { bundledFolders: ['dist'] } : {}),
        logRemovalPolicy: removalPolicy,
        environment: { RATE_LIMIT_PER_MINUTE: String(rateLimitPerMinute) },
      });
      // The activity log and analytics only read: their one write is the request's admission.
      if (readOnlyGroups.has(group)) fn.bindTable(table, 'read').bindAdmission(table);
      else fn.bindTable(table);
      Validations.of(fn).acknowledge({ id: 'Serverless-LambdaDLQ', reason: 'Invoked synchronously by API Gateway: the caller receives the error, no event is left to keep' });
      functions.set(group, fn);
    }
    functions.get('public')!.bindQueue(sendQueue, variables.sendQueueUrl).bindBucket(payloadBucket);
    functions.get('domains')!.bindSesIdentities();

    // ---- Queue consumers: partial batch failures, bounded concurrency ----------------------------
    const consumers = new Map<string, MailwrightFunction>();
    for (const spec of queues) {
      if (!spec.consumer) continue;
      const consumer = new MailwrightFunction(this, `${pascal(spec.consumer.group)}Function`, {
        group: spec.consumer.group,
        timeout: Duration.seconds(spec.consumer.timeoutSeconds ?? CONSUMER_TIMEOUT_SECONDS),
        logRemovalPolicy: removalPolicy,
        ...(spec.consumer.group === 'sender' || spec.consumer.group === 'campaign-sender' ? { environment: { SEND_RATE_PER_SECOND: String(sendRatePerSecond) } } : {}),
      });
      consumer.bindTable(table);
      consumers.set(spec.consumer.group, consumer);
      consumer.addEventSource(
        new SqsEventSource(queuesByName.get(spec.name)!, {
          batchSize: spec.consumer.batchSize,
          maxConcurrency: spec.consumer.maxConcurrency,
          reportBatchItemFailures: true,
        }),
      );
    }

    consumers.get('sender')!.bindBucket(payloadBucket).bindSesSending(configurationSet.configurationSetName);
    // Tracked segment builds: queued by the segments function, continued by the builder itself.
    const segmentBuildQueue = queuesByName.get('segment-builds')!;
    functions.get('segments')!.bindQueue(segmentBuildQueue, variables.segmentBuildQueueUrl);
    consumers.get('segment-builder')!.bindQueue(segmentBuildQueue, variables.segmentBuildQueueUrl);

    // ---- Contact imports and exports (README "Imports and exports"): files under their own prefixes ----
    const importQueue = queuesByName.get('contact-imports')!;
    const exportQueue = queuesByName.get('contact-exports')!;
    functions
      .get('transfers')!
      .bindQueue(importQueue, variables.importQueueUrl)
      .bindQueue(exportQueue, variables.exportQueueUrl)
      .bindBucketPrefix(payloadBucket, 'imports/', ['s3:GetObject', 's3:PutObject'])
      .bindBucketPrefix(payloadBucket, 'exports/', ['s3:GetObject']);
    consumers.get('contact-imports')!.bindQueue(importQueue, variables.importQueueUrl).bindBucketPrefix(payloadBucket, 'imports/', ['s3:GetObject']);
    // An export that outlives one invocation queues its own continuation.
    consumers.get('contact-exports')!.bindQueue(exportQueue, variables.exportQueueUrl).bindBucketPrefix(payloadBucket, 'exports/', ['s3:PutObject', 's3:AbortMultipartUpload']);

    // ---- Dashboard accounts (README "Dashboard accounts") ----------------------------------------
    // Access tokens are signed (HMAC) with this generated key by the dashboard function and
    // checked by the authorizer; mail (invitations, resets) goes through the send queue from
    // the operator's address: -c dashboardMailFrom=dashboard@<a domain verified in SES>.
    const accessTokenKey = new Secret(this, 'AccessTokenSigningKey', {
      description: 'Signs the dashboard\'s 5-minute access tokens',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    Validations.of(accessTokenKey).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'Rotating it only signs everyone out of the dashboard for a refresh; redeploying with a new value is the rotation' });
    const dashboardMailFrom = emailContext(this.node.tryGetContext('dashboardMailFrom'), 'dashboardMailFrom');
    if (!dashboardMailFrom) Annotations.of(this).addWarningV2('mailwright:dashboardMailFrom', 'No -c dashboardMailFrom: dashboard invitations and password resets answer 503 until you deploy with a sender on a verified domain');
    const dashboardMail = { sendQueue, ...(dashboardMailFrom ? { from: dashboardMailFrom } : {}) };
    functions.get('dashboard')!.bindAccessTokenKey(accessTokenKey).bindDashboardMail(dashboardMail);
    functions.get('members')!.bindDashboardMail(dashboardMail);

    // The authorizer looks the key up (GetItem) and records its use (lastUsedAt, UpdateItem at
    // most once a minute per key), and checks access tokens with their session and membership.
    const authorizerFunction = new MailwrightFunction(this, 'AuthorizerFunction', { group: 'authorizer', logRemovalPolicy: removalPolicy });
    authorizerFunction.bindTable(table, 'read').bindTableUpdates(table).bindAccessTokenKey(accessTokenKey);
    Validations.of(authorizerFunction).acknowledge({ id: 'Serverless-LambdaDLQ', reason: 'Invoked synchronously by API Gateway as the authorizer: a failure is answered with a 500, no event is left to keep' });

    // ---- Table stream consumers (infra/streams.ts): segment membership ---------------------------
    const streamFunctions = addStreamConsumers(this, table, { timeoutSeconds: CONSUMER_TIMEOUT_SECONDS, logRemovalPolicy: removalPolicy });

    // ---- Workflows (README "Workflows"): triggers from the stream, steps from the workflow queue ----
    // The trigger consumer only queues first steps and wakes; the runner sends email, waits (SQS
    // delays up to 15 minutes, one-time schedules into the workflow queue beyond) and calls
    // webhooks; the API cancels schedules of the executions a DELETE cancels.
    const workflowQueue = queuesByName.get('workflows')!;
    streamFunctions.get('workflow-triggers')!.bindQueue(workflowQueue, variables.workflowQueueUrl);
    for (const fn of [consumers.get('workflow-runner')!, functions.get('workflows')!]) {
      fn.bindQueue(workflowQueue, variables.workflowQueueUrl).bindScheduler(scheduler, [workflowQueue]).addEnvironment('WORKFLOW_QUEUE_ARN', workflowQueue.queueArn);
    }
    consumers.get('workflow-runner')!.bindQueue(sendQueue, variables.sendQueueUrl);

    // ---- Outbound webhooks (README "Webhooks"): stream → webhook-events → delivery queue → webhook-delivery ----
    // Endpoint signing secrets are encrypted in the table with this generated key (AES-256-GCM).
    const webhookSecretsKey = new Secret(this, 'WebhookSecretsKey', {
      description: 'Encrypts the webhook endpoints\' signing secrets stored in the table',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    Validations.of(webhookSecretsKey).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'An encryption key for data at rest: rotating it would leave the stored ciphertexts unreadable; rotate webhook secrets per endpoint instead (POST /webhooks/{id}/rotate-secret)' });
    const webhookDeliveryQueue = queuesByName.get('webhook-deliveries')!;
    functions.get('webhooks')!.bindQueue(webhookDeliveryQueue, variables.webhookDeliveryQueueUrl).bindWebhookSecretsKey(webhookSecretsKey);
    consumers.get('webhook-delivery')!.bindQueue(webhookDeliveryQueue, variables.webhookDeliveryQueueUrl).bindWebhookSecretsKey(webhookSecretsKey);
    streamFunctions.get('webhook-events')!.bindQueue(webhookDeliveryQueue, variables.webhookDeliveryQueueUrl);

    // ---- Daily refresh of tracked segments that age with time (withinDays) -----------------------
    // Undeliverable schedule events (EventBridge) and failed runs (Lambda's asynchronous retries) land in one DLQ.
    const segmentRefreshDlq = deadLetterQueue(this, 'SegmentRefreshDlq', 'The daily refresh of tracked segments failed after its retries');
    const segmentRefreshFunction = new MailwrightFunction(this, 'SegmentRefreshFunction', { group: 'segment-refresh', logRemovalPolicy: removalPolicy, deadLetterQueue: segmentRefreshDlq });
    segmentRefreshFunction.bindTable(table, 'read').bindQueue(segmentBuildQueue, variables.segmentBuildQueueUrl);
    new Rule(this, 'SegmentRefreshSchedule', {
      description: 'Queues the daily rebuild of tracked segments with withinDays conditions',
      schedule: Schedule.cron({ minute: '0', hour: '3' }),
      targets: [new LambdaFunction(segmentRefreshFunction, { retryAttempts: 2, deadLetterQueue: segmentRefreshDlq })],
    });

    // ---- SES events: configuration set → default bus → rule (retries, DLQ) → ses-events ---------
    // EventBridge invokes asynchronously: events it cannot deliver and events whose processing still
    // fails after Lambda's two asynchronous retries both land in this DLQ.
    const sesEventsDlq = deadLetterQueue(this, 'SesEventsDlq', 'SES events the ses-events function could not apply after its retries');
    // It counts bounces and complaints, so it runs the campaigns' deliverability guard: its
    // thresholds are the context values pauseBounceRate, pauseBounceMinSends, pauseComplaintRate,
    // pauseComplaintMinSends (README "Campaigns"), checked here and again at its cold start.
    const guardThresholds = guardThresholdsFrom((setting) => this.node.tryGetContext(setting.context), 'context');
    const sesEventsFunction = new MailwrightFunction(this, 'SesEventsFunction', {
      group: 'ses-events',
      timeout: Duration.seconds(CONSUMER_TIMEOUT_SECONDS),
      logRemovalPolicy: removalPolicy,
      deadLetterQueue: sesEventsDlq,
      environment: guardThresholdEnvironment(guardThresholds),
    });
    sesEventsFunction.bindTable(table);
    new Rule(this, 'SesEventsRule', {
      description: 'SES events of the mailwright configuration set',
      eventPattern: {
        source: ['aws.ses'],
        detailType: ['Email Sent', 'Email Delivered', 'Email Bounced', 'Email Complaint Received', 'Email Rejected', 'Email Opened', 'Email Clicked', 'Email Rendering Failed', 'Email Delivery Delayed'],
        detail: { mail: { tags: { 'ses:configuration-set': [configurationSet.configurationSetName] } } },
      },
      targets: [new LambdaFunction(sesEventsFunction, { deadLetterQueue: sesEventsDlq, retryAttempts: 8, maxEventAge: Duration.hours(6) })],
    });

    // ---- API ---------------------------------------------------------------------------------
    const apiAccessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy });
    const api = new RestApi(this, 'Api', {
      restApiName: 'Mailwright',
      description: 'Mailwright email API',
      // No execution logging, so no account-wide CloudWatch role (an AWS::ApiGateway::Account singleton);
      // access logs (one JSON line per request) and X-Ray traces need none.
      cloudWatchRole: false,
      deployOptions: {
        stageName: API_STAGE_NAME,
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(apiAccessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(apiAccessLogFields)),
        throttlingBurstLimit: 200,
        throttlingRateLimit: 100,
      },
    });
    Validations.of(api).acknowledge(
      { id: 'AwsSolutions-COG4', reason: 'No Cognito users: API keys are checked by the Lambda request authorizer' },
      { id: 'AwsSolutions-APIG2', reason: 'Requests are validated in the functions, so invalid input gets the API error envelope with field-level errors (422)' },
      { id: 'AwsSolutions-APIG3', reason: 'WAF is left to the operator (paid per web ACL and request); stage throttling and per-project rate limits apply' },
      { id: 'AwsSolutions-APIG6', reason: 'Execution logging needs the account-wide API Gateway CloudWatch role; access logs and X-Ray traces cover each request' },
    );

    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerFunction,
      identitySources: [IdentitySource.header('Authorization')],
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });

    // One integration per function, with one API-scoped invoke permission instead of two per
    // method (per-method permissions would outgrow Lambda's 20 KB resource policy).
    const integrations = new Map(
      [...functions].map(([group, fn]) => [group, new LambdaIntegration(fn, { proxy: true, scopePermissionToMethod: false })]),
    );

    const routes = props.routes ?? routeTable;
    const corsMethodsByPath = new Map<string, Set<string>>();
    for (const route of routes) {
      const method = api.root.resourceForPath(route.path).addMethod(
        route.method,
        integrations.get(route.group)!,
        // Public routes (unsubscribe links, the API document) take no key: no authorizer.
        route.auth === 'none' ? { authorizationType: AuthorizationType.NONE } : { authorizer, authorizationType: AuthorizationType.CUSTOM },
      );
      if (route.auth === 'none') {
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: 'Public by design: one-click unsubscribe links (RFC 8058, authorized by their signed token), the API document, and the dashboard app, which no API key holder calls',
        });
      }
      if (route.cors) {
        const methods = corsMethodsByPath.get(route.path) ?? new Set<string>();
        corsMethodsByPath.set(route.path, methods.add(route.method));
      }
    }
    // One preflight per path (API Gateway allows one OPTIONS method per resource); it is a mock
    // integration with AuthorizationType NONE, since browsers send no Authorization on preflight.
    for (const [path, methods] of corsMethodsByPath) {
      api.root.resourceForPath(path).addCorsPreflight({
        allowOrigins: Cors.ALL_ORIGINS,
        allowHeaders: CORS_ALLOW_HEADERS,
        allowMethods: [...methods, 'OPTIONS'],
        maxAge: Duration.minutes(10), // as infra/local/gateway.ts answers preflight
      });
    }

    const quotedHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, `'${value}'`]));
    for (const spec of gatewayResponses) {
      const responseHeaders = quotedHeaders({ ...gatewayResponseHeaders, ...spec.headers });
      api.addGatewayResponse(`${pascal(spec.type.toLowerCase())}Response`, {
        type: ResponseType.of(spec.type),
        ...(spec.statusCode !== undefined ? { statusCode: String(spec.statusCode) } : {}),
        responseHeaders,
        templates: { 'application/json': gatewayResponseTemplate(spec, representativeStatus(spec)) },
      });
    }

    // ---- Campaigns (README "Campaigns"): schedule → fan-out queue → campaign-dispatch → campaign-send queue → campaign-sender
    const fanoutQueue = queuesByName.get('campaign-fanout')!;
    const campaignSendQueue = queuesByName.get('campaign-send')!;
    // Signs the one-click unsubscribe links in marketing mail (HMAC).
    const unsubscribeSecret = new Secret(this, 'UnsubscribeSigningSecret', {
      description: 'Signs the one-click unsubscribe links in marketing mail',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    Validations.of(unsubscribeSecret).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'Rotating the signing secret would break the unsubscribe links in every mail already sent' });
    // Links in mail point at the API (or, with -c publicApiUrl=https://…, at its custom domain).
    // api.url refers to the stage, which depends on every method and so on these functions: a cycle.
    const stageUrl = `https://${api.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${API_STAGE_NAME}`;
    const links = { secret: unsubscribeSecret, publicApiUrl: (this.node.tryGetContext('publicApiUrl') as string | undefined) ?? stageUrl };
    functions
      .get('campaigns')!
      .bindQueue(fanoutQueue, variables.campaignFanoutQueueUrl)
      .bindScheduler(scheduler, [fanoutQueue])
      .bindUnsubscribeLinks(links)
      // Test sends go straight to SES in a paced slot.
      .bindSesSending(configurationSet.configurationSetName)
      .addEnvironment('CAMPAIGN_FANOUT_QUEUE_ARN', fanoutQueue.queueArn)
      .addEnvironment('SEND_RATE_PER_SECOND', String(sendRatePerSecond));
    consumers.get('campaign-dispatch')!.bindQueue(fanoutQueue, variables.campaignFanoutQueueUrl).bindQueue(campaignSendQueue, variables.campaignSendQueueUrl).bindUnsubscribeLinks(links);
    consumers.get('campaign-sender')!.bindBucket(payloadBucket).bindSesSending(configurationSet.configurationSetName);
    functions.get('unsubscribe')!.bindUnsubscribeLinks(links);
    // MARKETING workflow mail carries one-click unsubscribe links, as campaign mail does.
    consumers.get('workflow-runner')!.bindUnsubscribeLinks(links);
    functions.get('dashboard')!.bindPublicApiUrl(links.publicApiUrl);

    // ---- Alarms (to an SNS topic; -c alarmEmail=… subscribes an address) and the dashboard ----------
    const alarmEmail = this.node.tryGetContext('alarmEmail') as string | undefined;
    const { topic: alarmTopic, dashboard } = addObservability(this, { api, sender: consumers.get('sender')!, ...(alarmEmail ? { alarmEmail } : {}) });

    // ---- Outputs -------------------------------------------------------------------------------
    api.node.tryRemoveChild('Endpoint'); // RestApi's own URL output, which ApiUrl replaces
    new CfnOutput(this, 'ApiUrl', { value: api.url });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarmTopic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: dashboard.dashboardName });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'PayloadBucketName', { value: payloadBucket.bucketName });
  }
}

/** One JSON access-log line per request: the requestId is the correlation id the functions log. */
const apiAccessLogFields = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  method: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  projectId: '$context.authorizer.projectId',
  errorType: '$context.error.responseType',
  xrayTraceId: '$context.xrayTraceId',
};

function emailContext(raw: unknown, name: string): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(raw)) throw new Error(`Context value ${name} must be an email address, got "${String(raw)}"`);
  return raw;
}

function positiveInteger(raw: unknown, fallback: number, name: string): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`Context value ${name} must be a positive integer, got "${String(raw)}"`);
  return value;
}
