import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, type IEventSource, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import type { IScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { variables, type Variable } from '../../shared/config/variables';
import { tableSchema } from '../../shared/db/schema';
import { functionSettings } from '../function-settings';
import { bundleAssetHash } from './bundle-hash';
import { LOCAL_SYNTH_CONTEXT, runEsbuildDirectly } from './local-bundling';

/** The repository root: entries, package-lock.json and tsconfig.json are found from here. */
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const resolveFromRoot = createRequire(`${projectRoot}package.json`);

export interface MailwrightFunctionProps {
  /** The folder under functions/: the entry is functions/<group>/handler.ts, export `handler`. */
  group: string;
  memorySize?: number;
  timeout?: Duration;
  /** Variables besides the ones every function gets and the bind… methods set. */
  environment?: Partial<Record<Variable['name'], string>>;
  /** Of the function's log group (default RETAIN, like every CDK log group). */
  logRemovalPolicy?: RemovalPolicy;
  /** Only for functions invoked asynchronously (EventBridge): where events go after Lambda's two retries. */
  deadLetterQueue?: IQueue;
  /**
   * Package files the code reads at run time instead of importing (`<package>/<export path>`, as
   * require.resolve takes them): copied into the bundle's node_modules with the package's
   * package.json, so they resolve in Lambda as they do locally.
   */
  bundledFiles?: readonly string[];
  /**
   * Folders of the function's own folder (functions/<group>/<folder>) the code reads at run time
   * (the dashboard's built app): copied beside the bundle under the same name.
   */
  bundledFolders?: readonly string[];
}

/**
 * Bundling hooks that copy the resolved files and their packages' package.json next to the
 * bundle, and the function's own folders beside it.
 */
function copyBundledFiles(group: string, specifiers: readonly string[], folders: readonly string[]) {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => [
      ...folders.map((folder) => `cp -R "${path.join(projectRoot, 'functions', group, folder)}" "${path.join(outputDir, folder)}"`),
      ...specifiers.flatMap((specifier) => {
        const source = resolveFromRoot.resolve(specifier);
        const packageName = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
        // exports maps rarely export package.json: find the package's folder above the file.
        let packageDir = path.dirname(source);
        while (!existsSync(path.join(packageDir, 'package.json')) || JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).name !== packageName) {
          packageDir = path.dirname(packageDir);
        }
        const target = path.join(outputDir, 'node_modules', packageName, path.relative(packageDir, source));
        return [
          `mkdir -p "${path.dirname(target)}"`,
          `cp "${path.join(packageDir, 'package.json')}" "${path.join(outputDir, 'node_modules', packageName, 'package.json')}"`,
          `cp "${source}" "${target}"`,
        ];
      }),
    ],
  };
}

/** Every file below `folder` (none when it does not exist yet). */
function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The deploy-time tunables (infra/function-settings.ts) given as context, as variables. */
function settingsEnvironment(scope: Construct): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const setting of functionSettings) {
    const value: unknown = scope.node.tryGetContext(setting.context);
    if (value !== undefined && value !== null && String(value) !== '') environment[setting.env] = String(value);
  }
  return environment;
}

/** The CloudWatch namespace of the functions' EMF metrics (shared/observability/metrics.ts). */
export const METRICS_NAMESPACE = 'Mailwright';

/**
 * Every Mailwright Lambda: Node.js 24 on arm64, bundled by esbuild as minified ESM with source maps
 * and its own AWS SDK, logs kept one month, X-Ray active tracing, a role of its own with no
 * AWS-managed policy. Resources are attached only through the bind methods, which grant the access
 * and set the variable the code reads in one call, so the two cannot drift.
 */
export class MailwrightFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: MailwrightFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    // Instead of AWSLambdaBasicExecutionRole (logs:* on every log group): write to its own group only.
    const role = new Role(scope, `${id}ServiceRole`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments/PutTelemetryRecords (and dynamodb:ListStreams for stream consumers) support no resource-level permissions',
    });
    const entry = `${projectRoot}functions/${props.group}/handler.ts`;
    const runtime = Runtime.NODEJS_24_X;
    const architecture = Architecture.ARM_64;
    const bundling = {
      format: OutputFormat.ESM,
      target: 'node24',
      minify: true,
      sourceMap: true,
      // The runtime's built-in SDK may lag behind the one we test (e.g. SES Attachments).
      bundleAwsSDK: true,
      mainFields: ['module', 'main'],
      // CommonJS dependencies call require(); ESM output has none unless we create it.
      banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
    };
    const bundledFiles = props.bundledFiles ?? [];
    const bundledFolders = props.bundledFolders ?? [];
    // The local stack's synthesis runs the same esbuild without npx in front of it (local-bundling.ts).
    if (scope.node.tryGetContext(LOCAL_SYNTH_CONTEXT) === true) runEsbuildDirectly();
    super(scope, id, {
      entry,
      handler: 'handler',
      projectRoot,
      depsLockFilePath: `${projectRoot}package-lock.json`,
      runtime,
      architecture,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      logGroup,
      role,
      ...(props.deadLetterQueue ? { deadLetterQueue: props.deadLetterQueue } : {}),
      tracing: Tracing.ACTIVE,
      environment: {
        [variables.nodeOptions.name]: '--enable-source-maps',
        [variables.logLevel.name]: 'INFO',
        [variables.serviceName.name]: 'mailwright',
        [variables.metricsNamespace.name]: METRICS_NAMESPACE,
        // Responses and errors can carry addresses and message content: traces keep timings only.
        [variables.tracerCaptureResponse.name]: 'false',
        [variables.tracerCaptureError.name]: 'false',
        ...settingsEnvironment(scope),
        ...props.environment,
      },
      bundling: {
        ...bundling,
        // Only when bundling runs: the hash reads every input of the bundle (bundle-hash.ts), the copied files and folders included.
        ...(Stack.of(scope).bundlingRequired
          ? {
              assetHash: bundleAssetHash(projectRoot, entry, { runtime: runtime.name, architecture: architecture.name, bundling, bundledFiles, bundledFolders }, [
                ...bundledFiles.map((file) => resolveFromRoot.resolve(file)),
                ...bundledFolders.flatMap((folder) => filesUnder(path.join(projectRoot, 'functions', props.group, folder))),
              ]),
            }
          : {}),
        ...(bundledFiles.length || bundledFolders.length ? { commandHooks: copyBundledFiles(props.group, bundledFiles, bundledFolders) } : {}),
      },
    });
  }

  /**
   * Read/write (or read-only) data access to the table; sets TABLE_NAME. The indexes are granted
   * by name (tableSchema), Query only, instead of grantReadWriteData's `index/*`.
   */
  bindTable(table: ITable, access: 'readWrite' | 'read' = 'readWrite'): this {
    const read = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem', 'dynamodb:DescribeTable'];
    const write = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
    this.addToRolePolicy(new PolicyStatement({ actions: access === 'read' ? read : [...read, ...write], resources: [table.tableArn] }));
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: tableSchema.globalSecondaryIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`),
      }),
    );
    this.addEnvironment(variables.tableName.name, table.tableName);
    return this;
  }

  /**
   * The one write of a read-only API function (bindTable 'read'): the admission step's
   * conditional UpdateItem of the project's rate-limit window, which every API request makes
   * first, beside a read of the project's status and revoked keys (shared/access/admission.ts).
   */
  bindAdmission(table: ITable): this {
    this.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [table.tableArn] }));
    return this;
  }

  /**
   * Functions fed by an event source mapping are invoked synchronously by it: a failed SQS message
   * returns to its queue and reaches the queue's redrive DLQ; failed stream records go to the
   * mapping's on-failure destination. A function-level DLQ (asynchronous invocations) has nothing to catch.
   */
  override addEventSource(source: IEventSource): void {
    super.addEventSource(source);
    Validations.of(this).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason: 'Invoked by an event source mapping, never asynchronously: failures go to the queue redrive DLQ or the mapping on-failure destination',
    });
    if (source instanceof SqsEventSource) {
      Validations.of(this).acknowledge({
        id: 'Serverless-LambdaEventSourceMappingDestination',
        reason: 'Lambda supports no on-failure destination for SQS mappings; the queue redrive policy moves failing messages to its DLQ',
      });
    }
  }

  /** Permission to send to the queue; sets `variable` to its URL. */
  bindQueue(queue: IQueue, variable: Variable): this {
    queue.grantSendMessages(this);
    this.addEnvironment(variable.name, queue.queueUrl);
    return this;
  }

  /**
   * SendEmail only as identities of this account and only through the given configuration set
   * (SES authorizes both resources); sets SES_CONFIGURATION_SET.
   */
  bindSesSending(configurationSetName: string): this {
    const stack = Stack.of(this);
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [
          stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
          stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: configurationSetName }),
        ],
      }),
    );
    this.addEnvironment(variables.sesConfigurationSet.name, configurationSetName);
    Validations.of(this.role!).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
      reason: 'Senders use any verified domain of the account, added at run time; the configuration set is named',
    });
    return this;
  }

  /**
   * Create, read and delete SES email identities (sender domains). Identity names are chosen by
   * users at run time, so the narrowest resource SES allows is this account's identity/*.
   */
  bindSesIdentities(): this {
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:CreateEmailIdentity', 'ses:GetEmailIdentity', 'ses:DeleteEmailIdentity'],
        resources: [Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
      }),
    );
    Validations.of(this.role!).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
      reason: 'Users add their sender domains at run time, so no identity name is known at deploy time',
    });
    return this;
  }

  /**
   * Get, put and delete objects in the payload bucket; sets PAYLOAD_BUCKET. Named actions instead
   * of grantReadWrite, whose s3:GetObject* / s3:DeleteObject* / s3:List* are wider than needed.
   */
  bindBucket(bucket: IBucket): this {
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
        resources: [bucket.arnForObjects('*')],
      }),
    );
    this.addEnvironment(variables.payloadBucket.name, bucket.bucketName);
    const cfnBucket = bucket.node.defaultChild as CfnBucket | undefined;
    if (cfnBucket) {
      Validations.of(this.role!).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(cfnBucket)}.Arn>/*]`,
        reason: 'Object keys are made at run time (one per payload); only Get/Put/Delete of this bucket\'s objects',
      });
    }
    return this;
  }

  /**
   * Named object actions on the payload bucket under one key prefix only (`imports/`, `exports/`):
   * for functions that handle one kind of object and nothing else; sets PAYLOAD_BUCKET. A
   * presigned URL acts with its signer's permissions, so these also bound what a URL can do.
   */
  bindBucketPrefix(bucket: IBucket, prefix: string, actions: readonly ('s3:GetObject' | 's3:PutObject' | 's3:DeleteObject' | 's3:AbortMultipartUpload')[]): this {
    this.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: [bucket.arnForObjects(`${prefix}*`)] }));
    this.addEnvironment(variables.payloadBucket.name, bucket.bucketName);
    const cfnBucket = bucket.node.defaultChild as CfnBucket | undefined;
    if (cfnBucket) {
      Validations.of(this.role!).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(cfnBucket)}.Arn>/${prefix}*]`,
        reason: `Object keys are made at run time (one per job); only ${actions.join(', ')} under ${prefix}`,
      });
    }
    return this;
  }

  /**
   * Create, update, read and delete one-time schedules in the group (shared/scheduler/schedules.ts),
   * pass the scheduler role (and no other) to EventBridge Scheduler, and let that role send to the
   * target queues; sets SCHEDULE_GROUP_NAME and SCHEDULER_ROLE_ARN.
   */
  bindScheduler(scheduler: { group: IScheduleGroup; role: IRole }, targets: IQueue[]): this {
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:GetSchedule', 'scheduler:DeleteSchedule'],
        resources: [Stack.of(this).formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${scheduler.group.scheduleGroupName}/*` })],
      }),
    );
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [scheduler.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    for (const queue of targets) queue.grantSendMessages(scheduler.role);
    this.addEnvironment(variables.scheduleGroupName.name, scheduler.group.scheduleGroupName);
    this.addEnvironment(variables.schedulerRoleArn.name, scheduler.role.roleArn);
    const groupName: unknown = Stack.of(this).resolve(scheduler.group.scheduleGroupName);
    if (typeof groupName === 'string') {
      Validations.of(this.role!).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${groupName}/*]`,
        reason: 'Schedule names are made at run time (one per campaign or workflow wait); the grant is limited to this group',
      });
    }
    return this;
  }

  /** Pages and links that name the API's own address (the dashboard's base path); sets PUBLIC_API_URL. */
  bindPublicApiUrl(publicApiUrl: string): this {
    this.addEnvironment(variables.publicApiUrl.name, publicApiUrl);
    return this;
  }

  /**
   * What signs and builds unsubscribe links: the signing secret (a dynamic reference, resolved by
   * CloudFormation into the function's configuration, never in the template) and the public API
   * URL; sets UNSUBSCRIBE_SECRET and PUBLIC_API_URL.
   */
  bindUnsubscribeLinks(links: { secret: ISecret; publicApiUrl: string }): this {
    this.addEnvironment(variables.unsubscribeSecret.name, links.secret.secretValue.unsafeUnwrap());
    this.addEnvironment(variables.publicApiUrl.name, links.publicApiUrl);
    return this;
  }

  /**
   * The key that signs and checks dashboard access tokens (shared/accounts/access-tokens.ts):
   * the generated secret as a dynamic reference, never in the template; sets ACCESS_TOKEN_SECRET.
   */
  bindAccessTokenKey(key: ISecret): this {
    this.addEnvironment(variables.accessTokenSecret.name, key.secretValue.unsafeUnwrap());
    return this;
  }

  /**
   * Dashboard mail (invitations, password resets) through the service's own pipeline: send to the
   * send queue (SEND_QUEUE_URL), from the operator's address (DASHBOARD_MAIL_FROM, `-c
   * dashboardMailFrom`; left unset without it, and the functions answer 503 where they would mail).
   */
  bindDashboardMail(mail: { sendQueue: IQueue; from?: string }): this {
    this.bindQueue(mail.sendQueue, variables.sendQueueUrl);
    if (mail.from) this.addEnvironment(variables.dashboardMailFrom.name, mail.from);
    return this;
  }

  /**
   * Only variables of the registry (shared/config/variables.ts), which the code reads through the
   * same entries. (Narrowing the key type is allowed: TypeScript checks method parameters bivariantly.)
   */
  override addEnvironment(key: Variable['name'], value: string, options?: Parameters<NodejsFunction['addEnvironment']>[2]): this {
    return super.addEnvironment(key, value, options);
  }

  /** UpdateItem on the table besides a read-only bindTable: the authorizer's key lastUsedAt. */
  bindTableUpdates(table: ITable): this {
    this.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [table.tableArn] }));
    this.addEnvironment(variables.tableName.name, table.tableName);
    return this;
  }

  /**
   * The key that encrypts webhook signing secrets in the table (shared/webhooks/secrets.ts): the
   * generated Secrets Manager secret, resolved by CloudFormation into the function's
   * KMS-encrypted environment (a dynamic reference — never in the template); sets WEBHOOK_SECRETS_KEY.
   */
  bindWebhookSecretsKey(key: ISecret): this {
    this.addEnvironment(variables.webhookSecretsKey.name, key.secretValue.unsafeUnwrap());
    return this;
  }
}
