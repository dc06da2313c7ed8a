import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { requiredEnv } from '../config/env';

/**
 * The payload bucket: what is too big for a queue message (attachments) travels by reference.
 * The bucket expires objects (7 days in the stack). Path-style addressing works on S3 and on the
 * local s3rver alike.
 */
const bucket = requiredEnv('PAYLOAD_BUCKET');
const s3 = new S3Client({ forcePathStyle: true });

export const attachmentKey = (projectId: string, sendId: string, index: number) => `attachments/${projectId}/${sendId}/${index}`;

export async function putPayload(key: string, content: Uint8Array, contentType: string): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: content, ContentType: contentType }));
}

export async function getPayload(key: string): Promise<Uint8Array> {
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Body!.transformToByteArray();
}
