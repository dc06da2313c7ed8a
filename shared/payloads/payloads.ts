import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { traced } from '../observability/tracer';

/**
 * The payload bucket: what is too big for a queue message (attachments) travels by reference.
 * The bucket expires objects (7 days in the stack). Path-style addressing works on S3 and on the
 * local s3rver alike.
 */
const bucket = requiredEnv(variables.payloadBucket);
const s3 = traced(new S3Client({ forcePathStyle: true }));

export const attachmentKey = (projectId: string, sendId: string, index: number) => `attachments/${projectId}/${sendId}/${index}`;

export async function putPayload(key: string, content: Uint8Array, contentType: string): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: content, ContentType: contentType }));
}

export async function getPayload(key: string): Promise<Uint8Array> {
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Body!.transformToByteArray();
}

/** The object's size in bytes, or undefined when there is none. */
export async function payloadSize(key: string): Promise<number | undefined> {
  try {
    const { ContentLength } = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return ContentLength ?? 0;
  } catch (error) {
    if ((error as Error).name === 'NotFound' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
    throw error;
  }
}

/** The object from byte `start` (to `end`, inclusive) as a stream: large files are never held whole. */
export async function payloadStream(key: string, start = 0, end?: number): Promise<Readable> {
  const range = start > 0 || end !== undefined ? `bytes=${start}-${end ?? ''}` : undefined;
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: range }));
  return Body as Readable;
}

/** A URL that lets its holder PUT this one object (any Content-Type) until it expires. */
export function presignPayloadUpload(key: string, expiresInSeconds: number): Promise<string> {
  return getSignedUrl(s3, new PutObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: expiresInSeconds });
}

/** A URL that lets its holder GET this one object until it expires, saved as `fileName`. */
export function presignPayloadDownload(key: string, fileName: string, expiresInSeconds: number): Promise<string> {
  return getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: key, ResponseContentDisposition: `attachment; filename="${fileName}"` }), {
    expiresIn: expiresInSeconds,
  });
}

/** S3's smallest part (but the last): parts are buffered to this size, so memory stays flat. */
const MULTIPART_PART_BYTES = 5 * 1024 * 1024;

/**
 * Writes an object of any size from chunks as they are produced (a multipart upload of 5 MB parts;
 * an empty or small object is one PutObject). An upload that fails is aborted.
 */
export async function writePayloadStream(key: string, contentType: string, chunks: AsyncIterable<string | Uint8Array>): Promise<number> {
  let uploadId: string | undefined;
  const parts: { ETag: string; PartNumber: number }[] = [];
  let buffered: Buffer[] = [];
  let bufferedBytes = 0;
  let total = 0;
  const flushPart = async () => {
    uploadId ??= (await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }))).UploadId!;
    const PartNumber = parts.length + 1;
    const { ETag } = await s3.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: Buffer.concat(buffered) }));
    parts.push({ ETag: ETag!, PartNumber });
    buffered = [];
    bufferedBytes = 0;
  };
  try {
    for await (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      buffered.push(bytes);
      bufferedBytes += bytes.length;
      total += bytes.length;
      if (bufferedBytes >= MULTIPART_PART_BYTES) await flushPart();
    }
    if (!uploadId) {
      await putPayload(key, Buffer.concat(buffered), contentType);
      return total;
    }
    if (bufferedBytes > 0) await flushPart();
    await s3.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    return total;
  } catch (error) {
    if (uploadId) await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
    throw error;
  }
}
