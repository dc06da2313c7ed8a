import {
  AccountSuspendedException,
  BadRequestException,
  InternalServiceErrorException,
  LimitExceededException,
  MailFromDomainNotVerifiedException,
  MessageRejected,
  NotFoundException,
  SendingPausedException,
  TooManyRequestsException,
} from '@aws-sdk/client-sesv2';
import { sesTagNames } from '../../../../shared/delivery/ses-tags';
import type { EmailRecord } from '../../../../shared/emails/emails';
import { buildSendEmailInput, classifySesError, formatAddress } from '../../../../shared/sending/ses';

const record: EmailRecord = {
  id: 'E1',
  projectId: 'P1',
  contactId: 'C1',
  to: { email: 'jane@example.com', name: 'Jane Doe' },
  from: { email: 'hello@acme.test', name: 'Acme' },
  replyTo: ['support@acme.test'],
  subject: 'Welcome ✓',
  html: '<p>Hi</p>',
  text: 'Hi (text part)',
  headers: [{ name: 'X-Entity-Ref-ID', value: 'abc' }],
  attachments: [{ key: 'attachments/P1/E1/0', filename: 'a.pdf', contentType: 'application/pdf', size: 3 }],
  source: { type: 'campaign', id: 'K1' },
  marketing: true,
  status: 'SENDING',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('buildSendEmailInput', () => {
  it('builds Simple content with tags, configuration set, headers and attachments', () => {
    // Prepare
    const content = new Uint8Array([1, 2, 3]);

    // Act
    const input = buildSendEmailInput(record, [{ filename: 'a.pdf', contentType: 'application/pdf', content }], 'mailwright-test');

    // Assess
    expect(input).toEqual({
      FromEmailAddress: '"Acme" <hello@acme.test>',
      Destination: { ToAddresses: ['"Jane Doe" <jane@example.com>'] },
      ReplyToAddresses: ['support@acme.test'],
      Content: {
        Simple: {
          Subject: { Data: 'Welcome ✓', Charset: 'UTF-8' },
          Body: { Html: { Data: '<p>Hi</p>', Charset: 'UTF-8' }, Text: { Data: 'Hi (text part)', Charset: 'UTF-8' } },
          Headers: [{ Name: 'X-Entity-Ref-ID', Value: 'abc' }],
          Attachments: [{ RawContent: content, FileName: 'a.pdf', ContentType: 'application/pdf', ContentDisposition: 'ATTACHMENT' }],
        },
      },
      EmailTags: [
        { Name: sesTagNames.project, Value: 'P1' },
        { Name: sesTagNames.email, Value: 'E1' },
        { Name: sesTagNames.source, Value: 'campaign' },
      ],
      ConfigurationSetName: 'mailwright-test',
    });
  });

  it('leaves out empty reply-to, headers and attachments', () => {
    // Act
    const input = buildSendEmailInput({ ...record, replyTo: [], headers: [], attachments: [] }, [], 'cs');

    // Assess
    expect(input.ReplyToAddresses).toBeUndefined();
    expect(input.Content!.Simple).toEqual({ Subject: { Data: 'Welcome ✓', Charset: 'UTF-8' }, Body: { Html: { Data: '<p>Hi</p>', Charset: 'UTF-8' }, Text: { Data: 'Hi (text part)', Charset: 'UTF-8' } } });
  });

  it('makes the text part from the HTML for a record queued before records had one', () => {
    // Prepare
    const { text: _text, ...older } = record;

    // Act
    const input = buildSendEmailInput({ ...older, html: '<p>Hi <a href="https://acme.test/a">there</a></p>' }, [], 'cs');

    // Assess
    expect(input.Content!.Simple!.Body).toEqual({
      Html: { Data: '<p>Hi <a href="https://acme.test/a">there</a></p>', Charset: 'UTF-8' },
      Text: { Data: 'Hi there [https://acme.test/a]', Charset: 'UTF-8' },
    });
  });
});

describe('formatAddress', () => {
  it.each([
    [{ email: 'a@x.test' }, 'a@x.test'],
    [{ email: 'a@x.test', name: '  ' }, 'a@x.test'],
    [{ email: 'a@x.test', name: 'Doe, Jane' }, '"Doe, Jane" <a@x.test>'],
    [{ email: 'a@x.test', name: 'Jane "JD" D\\oe' }, '"Jane \\"JD\\" D\\\\oe" <a@x.test>'],
    [{ email: 'a@x.test', name: 'Evil\r\nBcc: x@y.test' }, '"Evil Bcc: x@y.test" <a@x.test>'],
    [{ email: 'a@x.test', name: 'José' }, '=?UTF-8?B?Sm9zw6k=?= <a@x.test>'],
  ])('formats %j as %s', (address, expected) => {
    expect(formatAddress(address)).toBe(expected);
  });

  it('splits a long non-ASCII name into encoded-words of at most 75 characters, between characters', () => {
    // Prepare
    const name = 'Ünïcödé '.repeat(12).trim();

    // Act
    const formatted = formatAddress({ email: 'a@x.test', name });

    // Assess
    const words = formatted.replace(/ <a@x\.test>$/, '').split(' ');
    expect(words.length).toBeGreaterThan(1);
    for (const word of words) {
      expect(word).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
      expect(word.length).toBeLessThanOrEqual(75);
    }
    const decoded = words.map((word) => Buffer.from(word.slice(10, -2), 'base64').toString('utf8')).join('');
    expect(decoded).toBe(name);
  });
});

describe('classifySesError', () => {
  const meta = (httpStatusCode: number) => ({ $metadata: { httpStatusCode } });

  it.each([
    new TooManyRequestsException({ message: 'Maximum sending rate exceeded.', ...meta(429) }),
    new InternalServiceErrorException({ message: 'Internal error', ...meta(500) }),
    new LimitExceededException({ message: 'Too many', ...meta(400) }),
    Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', ...meta(400) }),
    Object.assign(new Error('Service Unavailable'), { name: 'UnknownError', ...meta(503) }),
    Object.assign(new Error('socket hang up'), { name: 'Error', code: 'ECONNRESET' }),
    Object.assign(new Error('Request timed out'), { name: 'TimeoutError' }),
  ].map((error) => [error.name, error] as const))('retries %s', (_name, error) => {
    expect(classifySesError(error)).toEqual({ action: 'retry', reason: `${error.name}: ${error.message}` });
  });

  it('retries a used-up daily quota after 15 minutes', () => {
    const error = new LimitExceededException({ message: 'Daily message quota exceeded.', ...meta(400) });
    expect(classifySesError(error)).toEqual({ action: 'retry', reason: 'LimitExceededException: Daily message quota exceeded.', delaySeconds: 900 });
  });

  it.each([
    new MessageRejected({ message: 'Email address is not verified.', ...meta(400) }),
    new MailFromDomainNotVerifiedException({ message: 'not verified', ...meta(400) }),
    new BadRequestException({ message: 'bad', ...meta(400) }),
    new NotFoundException({ message: 'no configuration set', ...meta(404) }),
    new AccountSuspendedException({ message: 'suspended', ...meta(400) }),
    new SendingPausedException({ message: 'paused', ...meta(400) }),
    Object.assign(new Error('forbidden'), { name: 'AccessDeniedException', ...meta(403) }),
  ].map((error) => [error.name, error] as const))('rejects %s', (_name, error) => {
    expect(classifySesError(error)).toEqual({ action: 'reject', reason: `${error.name}: ${error.message}` });
  });
});
