import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { sqsClient } from '../queue/handler';
import type { BuildJob } from './build';
import type { MemberCleanupJob } from './cleanup';

const segmentBuildQueueUrl = requiredEnv(variables.segmentBuildQueueUrl);

/** Hands a tracked segment's build (or its continuation) to the segment-builder function. */
export async function enqueueBuild(job: BuildJob): Promise<void> {
  await sqsClient.send(new SendMessageCommand({ QueueUrl: segmentBuildQueueUrl, MessageBody: JSON.stringify(job) }));
}

/** Hands a deleted segment's member cleanup (or its continuation) to the segment-builder function (shared/segments/cleanup.ts). */
export async function enqueueMemberCleanup(job: MemberCleanupJob): Promise<void> {
  await sqsClient.send(new SendMessageCommand({ QueueUrl: segmentBuildQueueUrl, MessageBody: JSON.stringify(job) }));
}
