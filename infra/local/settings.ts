import { guardThresholdEnvironment, guardThresholdSettings, guardThresholdsFrom } from '../../shared/campaigns/guard';
import { functionSettings } from '../function-settings';
import { LocalFaultsError, parseLocalFaults } from './faults';

/**
 * The local stack's settings, from the environment with the documented defaults; the CDK context
 * the local synthesis takes from them; and the environment of the stack's own process and of
 * operator tools (admin CLI, benches) — never of a function, whose environment is its template's.
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

function localFaults() {
  try {
    return parseLocalFaults(process.env.LOCAL_FAULTS);
  } catch (error) {
    if (!(error instanceof LocalFaultsError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
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
    /** LOCAL_FAULTS: failures injected into the functions' calls per service, by the IAM fronts (infra/local/faults.ts). */
    faults: localFaults(),
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

/**
 * The context the local stack synthesizes the app with: the deploy-time values a user sets with
 * `-c`, taken from the environment variables of the same meaning (infra/local/README.md), and the
 * public URL of the local gateway for links in mail.
 */
export function localContext(settings: LocalSettings): Record<string, string> {
  const context: Record<string, string> = {
    publicApiUrl: process.env.PUBLIC_API_URL || `http://localhost:${settings.ports.PORT}`,
    // Invitations and password resets come from the seeded project's verified sender domain.
    dashboardMailFrom: `dashboard@${settings.senderDomain}`,
  };
  const fromEnvironment = [
    { context: 'sendRatePerSecond', env: 'SEND_RATE_PER_SECOND' },
    { context: 'rateLimitPerMinute', env: 'RATE_LIMIT_PER_MINUTE' },
    ...Object.values(guardThresholdSettings),
    ...functionSettings,
  ];
  for (const setting of fromEnvironment) {
    const value = process.env[setting.env];
    if (value !== undefined && value !== '') context[setting.context] = value;
  }
  return context;
}

/** Where the functions' SDK clients reach the local AWS (AWS_ENDPOINT_URL_<SERVICE>). */
export function functionEndpoints(endpoints: { dynamodb: string; sqs: string; ses: string; s3: string; scheduler: string }): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    // DynamoDB Local serves its streams API on the same port.
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: endpoints.dynamodb,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    AWS_ENDPOINT_URL_SESV2: endpoints.ses,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    AWS_ENDPOINT_URL_SCHEDULER: endpoints.scheduler,
  };
}

/** The environment of the stack's own process and of operator tools: the emulators directly, as an administrator. */
export function localAwsEnvironment(settings: LocalSettings): Record<string, string> {
  const { ports } = settings;
  return {
    AWS_REGION: 'us-east-1',
    // s3rver accepts only these static credentials; the other emulators accept any.
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...functionEndpoints({
      dynamodb: `http://127.0.0.1:${ports.DYNAMODB_PORT}`,
      sqs: `http://127.0.0.1:${ports.SQS_PORT}`,
      ses: `http://127.0.0.1:${ports.SES_PORT}`,
      s3: `http://127.0.0.1:${ports.S3_PORT}`,
      scheduler: `http://127.0.0.1:${ports.SCHEDULER_PORT}`,
    }),
    TABLE_NAME: settings.tableName,
    PAYLOAD_BUCKET: settings.bucketName,
    SES_CONFIGURATION_SET: 'mailwright',
    ...guardThresholdEnvironment(settings.guardThresholds),
  };
}
