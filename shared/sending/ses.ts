import { SESv2Client, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { sesTagNames } from '../delivery/ses-tags';
import type { EmailAddress, EmailRecord } from '../emails/emails';
import { traced } from '../observability/tracer';
import { plainTextOf } from '../templates/plain-text';

/**
 * The SES v2 client for sending. maxAttempts 1: the SDK must not retry throttled sends on its own,
 * behind the pacer's back (each retry would be an unpaced request); the sender retries through
 * the queue instead. Locally the endpoint comes from AWS_ENDPOINT_URL_SESV2.
 */
export const sesClient = traced(
  new SESv2Client({
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 20_000 },
  }),
);

/**
 * Runs `gate` right before each SendEmail request leaves (after serializing and signing, at the
 * end of the SDK's finalize step), so that what SES counts is what the gate admitted.
 */
export function gateSendEmail(gate: () => Promise<void>): void {
  sesClient.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'SendEmailCommand') await gate();
      return next(args);
    },
    { step: 'finalizeRequest', priority: 'low', name: 'mailwrightSendGate' },
  );
}

export interface AttachmentContent {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export function buildSendEmailInput(record: EmailRecord, attachments: AttachmentContent[], configurationSetName: string): SendEmailCommandInput {
  return {
    FromEmailAddress: formatAddress(record.from),
    Destination: { ToAddresses: [formatAddress(record.to)] },
    ...(record.replyTo.length > 0 ? { ReplyToAddresses: record.replyTo } : {}),
    Content: {
      Simple: {
        Subject: { Data: record.subject, Charset: 'UTF-8' },
        // Both parts: SES sends multipart/alternative, which text-only readers and spam filters expect.
        Body: { Html: { Data: record.html, Charset: 'UTF-8' }, Text: { Data: record.text ?? plainTextOf(record.html), Charset: 'UTF-8' } },
        ...(record.headers.length > 0 ? { Headers: record.headers.map(({ name, value }) => ({ Name: name, Value: value })) } : {}),
        ...(attachments.length > 0
          ? {
              Attachments: attachments.map((attachment) => ({
                RawContent: attachment.content,
                FileName: attachment.filename,
                ContentType: attachment.contentType,
                ContentDisposition: 'ATTACHMENT' as const,
              })),
            }
          : {}),
      },
    },
    EmailTags: [
      { Name: sesTagNames.project, Value: record.projectId },
      { Name: sesTagNames.email, Value: record.id },
      { Name: sesTagNames.source, Value: record.source.type },
    ],
    ConfigurationSetName: configurationSetName,
  };
}

/**
 * `"Display Name" <address>` (RFC 5322 quoted-string, `"` and `\` escaped) or, for a non-ASCII
 * name, RFC 2047 encoded-words `=?UTF-8?B?…?=` (each at most 75 characters, split between
 * characters). Line breaks in a name are folded to spaces: they must never reach a header.
 */
export function formatAddress({ email, name }: EmailAddress): string {
  const display = name?.replace(/[\r\n\t]+/g, ' ').trim();
  if (!display) return email;
  // Printable ASCII only: quote it. Anything else (non-ASCII, control characters): encode it.
  if (/^[\x20-\x7e]*$/.test(display)) return `"${display.replace(/["\\]/g, '\\$&')}" <${email}>`;
  return `${encodeWords(display)} <${email}>`;
}

/** 45 bytes → 60 base64 characters → 72-character encoded-words (limit 75). */
const MAX_WORD_BYTES = 45;

function encodeWords(text: string): string {
  const words: string[] = [];
  let chunk: number[] = [];
  for (const character of text) {
    const bytes = [...Buffer.from(character, 'utf8')];
    if (chunk.length + bytes.length > MAX_WORD_BYTES) {
      words.push(encodedWord(chunk));
      chunk = [];
    }
    chunk.push(...bytes);
  }
  if (chunk.length > 0) words.push(encodedWord(chunk));
  return words.join(' ');
}

const encodedWord = (bytes: number[]) => `=?UTF-8?B?${Buffer.from(bytes).toString('base64')}?=`;

export type SesErrorClass =
  | { action: 'retry'; reason: string; /** Overrides the usual backoff (daily quota). */ delaySeconds?: number }
  | { action: 'reject'; reason: string };

/** How long to wait when the account's daily quota is used up. */
export const DAILY_QUOTA_DELAY_SECONDS = 15 * 60;

const RETRY = new Set(['TooManyRequestsException', 'LimitExceededException', 'ThrottlingException', 'Throttling', 'InternalServiceErrorException', 'InternalFailure', 'ServiceUnavailable']);
const REJECT = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'BadRequestException',
  'NotFoundException',
  'AccountSuspendedException',
  'SendingPausedException',
]);

/**
 * Retry (throttling, quota, SES or network trouble: the mail goes out later, never lost) or
 * reject (SES will not take this mail: it fails for good).
 */
const THROTTLES = new Set(['TooManyRequestsException', 'LimitExceededException', 'ThrottlingException', 'Throttling']);

/** SES said "slow down": the sending rate or the daily quota (counted in the SesThrottles metric). */
export function isSesThrottle(error: unknown): boolean {
  const { name = '', message = '' } = (error ?? {}) as { name?: string; message?: string };
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  return THROTTLES.has(name) || status === 429 || /daily message quota/i.test(message);
}

export function classifySesError(error: unknown): SesErrorClass {
  const { name = 'Error', message = '' } = (error ?? {}) as { name?: string; message?: string };
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  const reason = message ? `${name}: ${message}` : name;
  if (/daily message quota/i.test(message)) return { action: 'retry', reason, delaySeconds: DAILY_QUOTA_DELAY_SECONDS };
  if (RETRY.has(name)) return { action: 'retry', reason };
  if (REJECT.has(name)) return { action: 'reject', reason };
  if (status === 429 || (status !== undefined && status >= 500)) return { action: 'retry', reason };
  if (status !== undefined && status >= 400) return { action: 'reject', reason };
  // No HTTP status: the request never got an answer (timeout, reset, DNS) — SES may be fine.
  return { action: 'retry', reason };
}
