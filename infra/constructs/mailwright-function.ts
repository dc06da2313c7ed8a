import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** The repository root: entries, package-lock.json and tsconfig.json are found from here. */
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface MailwrightFunctionProps {
  /** The folder under functions/: the entry is functions/<group>/handler.ts, export `handler`. */
  group: string;
  memorySize?: number;
  timeout?: Duration;
  environment?: Record<string, string>;
  /** Of the function's log group (default RETAIN, like every CDK log group). */
  logRemovalPolicy?: RemovalPolicy;
}

/**
 * Every Mailwright Lambda: Node.js 22 on arm64, bundled by esbuild as minified ESM with source maps
 * and its own AWS SDK, logs kept one month. Resources are attached only through the bind methods,
 * which grant the access and set the variable the code reads in one call, so the two cannot drift.
 */
export class MailwrightFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: MailwrightFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    super(scope, id, {
      entry: `${projectRoot}functions/${props.group}/handler.ts`,
      handler: 'handler',
      projectRoot,
      depsLockFilePath: `${projectRoot}package-lock.json`,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // The runtime's built-in SDK may lag behind the one we test (e.g. SES Attachments).
        bundleAwsSDK: true,
        mainFields: ['module', 'main'],
        // CommonJS dependencies call require(); ESM output has none unless we create it.
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
      },
    });
  }

  /** Read/write (or read-only) data access to the table; sets TABLE_NAME. */
  bindTable(table: ITable, access: 'readWrite' | 'read' = 'readWrite'): this {
    if (access === 'read') table.grantReadData(this);
    else table.grantReadWriteData(this);
    this.addEnvironment('TABLE_NAME', table.tableName);
    return this;
  }

  /** Permission to send to the queue; sets `envVar` to its URL. */
  bindQueue(queue: IQueue, envVar: string): this {
    queue.grantSendMessages(this);
    this.addEnvironment(envVar, queue.queueUrl);
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
    this.addEnvironment('SES_CONFIGURATION_SET', configurationSetName);
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
    this.addEnvironment('PAYLOAD_BUCKET', bucket.bucketName);
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
    this.addEnvironment('SCHEDULE_GROUP_NAME', scheduler.group.scheduleGroupName);
    this.addEnvironment('SCHEDULER_ROLE_ARN', scheduler.role.roleArn);
    return this;
  }
}
