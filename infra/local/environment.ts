import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { guardThresholdEnvironment, guardThresholdsFrom } from '../../shared/campaigns/guard';

/**
 * The local stack's settings, from the environment with the documented defaults, and the
 * environment the functions see locally: the same variables as in AWS, with endpoints pointed at
 * the emulators through AWS_ENDPOINT_URL_<SERVICE>.
 */
function port(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    console.error(`${name} must be a port number (1–65535), got "${raw}".`);
    process.exit(1);
  }
  return value;
}

function nonNegative(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!(value >= 0)) {
    console.error(`${name} must be a number of seconds (0 or more), got "${raw}".`);
    process.exit(1);
  }
  return value;
}

function fraction(name: string): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? 0 : Number(raw);
  if (!(value >= 0 && value <= 1)) {
    console.error(`${name} must be a number from 0 to 1, got "${raw}".`);
    process.exit(1);
  }
  return value;
}

function guardThresholds() {
  try {
    return guardThresholdsFrom((setting) => process.env[setting.env], 'env');
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

export function localSettings() {
  return {
    ports: {
      PORT: port('PORT', 3000),
      SES_PORT: port('SES_PORT', 8005),
      DYNAMODB_PORT: port('DYNAMODB_PORT', 8000),
      SQS_PORT: port('SQS_PORT', 9324),
      S3_PORT: port('S3_PORT', 4569),
      SCHEDULER_PORT: port('SCHEDULER_PORT', 8006),
    },
    dataDir: process.env.MAILWRIGHT_DATA_DIR || '.mailwright',
    tableName: 'mailwright',
    bucketName: 'mailwright-payloads',
    sesFaults: { throttleRate: fraction('LOCAL_SES_THROTTLE_RATE'), failureRate: fraction('LOCAL_SES_FAILURE_RATE') },
    domainVerifySeconds: nonNegative('LOCAL_DOMAIN_VERIFY_SECONDS', 5),
    /** The deployed stack refreshes time-dependent tracked segments daily; locally as often as this. */
    segmentRefreshSeconds: nonNegative('LOCAL_SEGMENT_REFRESH_SECONDS', 86_400),
    senderDomain: (process.env.LOCAL_SENDER_DOMAIN || 'example.com').toLowerCase(),
    /** The campaigns' deliverability guard: the deployed defaults unless PAUSE_* variables say otherwise. */
    guardThresholds: guardThresholds(),
  };
}

export type LocalSettings = ReturnType<typeof localSettings>;

export function localAwsEnvironment(settings: LocalSettings): Record<string, string> {
  const { ports } = settings;
  return {
    AWS_REGION: 'us-east-1',
    // s3rver accepts only these static credentials; the other emulators accept any.
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${ports.DYNAMODB_PORT}`,
    // DynamoDB Local serves its streams API on the same port.
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: `http://127.0.0.1:${ports.DYNAMODB_PORT}`,
    AWS_ENDPOINT_URL_SQS: `http://127.0.0.1:${ports.SQS_PORT}`,
    AWS_ENDPOINT_URL_SESV2: `http://127.0.0.1:${ports.SES_PORT}`,
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${ports.S3_PORT}`,
    // The local EventBridge Scheduler (infra/local/scheduler.ts); any group and role are accepted.
    AWS_ENDPOINT_URL_SCHEDULER: `http://127.0.0.1:${ports.SCHEDULER_PORT}`,
    // Where links in mail point (unsubscribe): the local gateway.
    PUBLIC_API_URL: process.env.PUBLIC_API_URL || `http://localhost:${ports.PORT}`,
    SCHEDULE_GROUP_NAME: 'mailwright',
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/mailwright-scheduler',
    TABLE_NAME: settings.tableName,
    PAYLOAD_BUCKET: settings.bucketName,
    SES_CONFIGURATION_SET: 'mailwright',
    ...guardThresholdEnvironment(settings.guardThresholds),
    // Outbound webhooks (README "Webhooks"): hosts let through the SSRF check (e.g. a local
    // receiver on 127.0.0.1, http included) and the retry waits, as the user set them.
    WEBHOOK_ALLOWED_HOSTS: process.env.WEBHOOK_ALLOWED_HOSTS ?? '',
    ...(process.env.WEBHOOK_RETRY_SCHEDULE ? { WEBHOOK_RETRY_SCHEDULE: process.env.WEBHOOK_RETRY_SCHEDULE } : {}),
  };
}

/**
 * A secret the stack generates in Secrets Manager, locally: the variable if set, otherwise a
 * random value made once and kept in the data folder.
 */
function localSecret(dataDir: string, envVar: string, fileName: string): string {
  if (process.env[envVar]) return process.env[envVar]!;
  const file = path.join(dataDir, fileName);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** The key that encrypts webhook signing secrets (WEBHOOK_SECRETS_KEY). */
export const localWebhookSecretsKey = (dataDir: string) => localSecret(dataDir, 'WEBHOOK_SECRETS_KEY', 'webhook-secrets.key');

/** The key that signs unsubscribe links (UNSUBSCRIBE_SECRET). */
export const localUnsubscribeSecret = (dataDir: string) => localSecret(dataDir, 'UNSUBSCRIBE_SECRET', 'unsubscribe-secret.key');
