import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { requiredEnv } from '../config/env';
import { sqsClient } from '../queue/handler';
import type { BuildJob } from './build';

const segmentBuildQueueUrl = requiredEnv('SEGMENT_BUILD_QUEUE_URL');

/** Hands a tracked segment's build (or its continuation) to the segment-builder function. */
export async function enqueueBuild(job: BuildJob): Promise<void> {
  await sqsClient.send(new SendMessageCommand({ QueueUrl: segmentBuildQueueUrl, MessageBody: JSON.stringify(job) }));
}
