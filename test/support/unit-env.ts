import { variables, type Variable } from '../../shared/config/variables';

// Unit tests run functions' modules without a stack: give them the configuration a function has.
const given = (variable: Variable, value: string) => {
  process.env[variable.name] = value;
};
given(variables.tableName, 'mailwright-test');
given(variables.rateLimitPerMinute, '1000');
given(variables.logLevel, 'SILENT');
given(variables.payloadBucket, 'mailwright-payloads-test');
given(variables.sesConfigurationSet, 'mailwright-test');
given(variables.segmentBuildQueueUrl, 'http://localhost:9324/000000000000/segment-builds-test');
given(variables.scheduleGroupName, 'mailwright-test');
given(variables.schedulerRoleArn, 'arn:aws:iam::123456789012:role/mailwright-scheduler-test');
given(variables.unsubscribeSecret, 'unit-test-unsubscribe-secret-0123456789abcdef');
given(variables.publicApiUrl, 'https://api.example.test/api/');
given(variables.campaignFanoutQueueUrl, 'http://localhost:9324/000000000000/campaign-fanout-test');
given(variables.campaignFanoutQueueArn, 'arn:aws:sqs:us-east-1:000000000000:campaign-fanout-test');
given(variables.campaignSendQueueUrl, 'http://localhost:9324/000000000000/campaign-send-test');
given(variables.webhookDeliveryQueueUrl, 'http://localhost:9324/000000000000/webhook-deliveries-test');
given(variables.webhookSecretsKey, 'webhook-secrets-key-for-unit-tests');
given(variables.importQueueUrl, 'http://localhost:9324/000000000000/contact-imports-test');
given(variables.exportQueueUrl, 'http://localhost:9324/000000000000/contact-exports-test');
given(variables.accessTokenSecret, 'access-token-secret-for-unit-tests-0123456789');
given(variables.sendQueueUrl, 'http://localhost:9324/000000000000/send-test');
given(variables.dashboardMailFrom, 'dashboard@mail.example.test');

// What Lambda and the test runner provide, not the stack: no registry entries.
process.env.AWS_REGION = 'us-east-1';
process.env.AWS_ACCESS_KEY_ID = 'test';
process.env.AWS_SECRET_ACCESS_KEY = 'test';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
