import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { requiredEnv } from '../config/env';
import type { BuildJob } from './build';
import { traced } from '../observability/tracer';

const segmentBuildQueueUrl = requiredEnv('SEGMENT_BUILD_QUEUE_URL');
const sqs = traced(new SQSClient({}));

/** Hands a tracked segment's build (or its continuation) to the segment-builder function. */
export async function enqueueBuild(job: BuildJob): Promise<void> {
  await sqs.send(new SendMessageCommand({ QueueUrl: segmentBuildQueueUrl, MessageBody: JSON.stringify(job) }));
}
