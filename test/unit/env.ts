// Unit tests run functions' modules without a stack: give them the configuration a function has.
process.env.TABLE_NAME = 'mailwright-test';
process.env.AWS_REGION = 'us-east-1';
process.env.AWS_ACCESS_KEY_ID = 'test';
process.env.AWS_SECRET_ACCESS_KEY = 'test';
process.env.RATE_LIMIT_PER_MINUTE = '1000';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.PAYLOAD_BUCKET = 'mailwright-payloads-test';
process.env.SES_CONFIGURATION_SET = 'mailwright-test';
process.env.SEGMENT_BUILD_QUEUE_URL = 'http://localhost:9324/000000000000/segment-builds-test';
process.env.SCHEDULE_GROUP_NAME = 'mailwright-test';
process.env.SCHEDULER_ROLE_ARN = 'arn:aws:iam::123456789012:role/mailwright-scheduler-test';
process.env.WEBHOOK_DELIVERY_QUEUE_URL = 'http://localhost:9324/000000000000/webhook-deliveries-test';
process.env.WEBHOOK_SECRETS_KEY = 'webhook-secrets-key-for-unit-tests';
process.env.IMPORT_QUEUE_URL = 'http://localhost:9324/000000000000/contact-imports-test';
process.env.EXPORT_QUEUE_URL = 'http://localhost:9324/000000000000/contact-exports-test';
