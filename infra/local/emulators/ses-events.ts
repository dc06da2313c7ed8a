import { randomUUID } from 'node:crypto';
import type { SesEvent } from '../../../shared/delivery/ses-events';

/**
 * Builds SES events in the shape SES publishes them to EventBridge (source aws.ses, detail-type
 * "Email …", detail.eventType / detail.mail / detail.<type>), for the local stack to feed the
 * ses-events handler the way the configuration set's event destination does in AWS.
 */
export interface SentMail {
  messageId: string;
  from: string;
  destination: string[];
  subject: string;
  tags: Record<string, string[]>;
  sentAt: string;
}

export type SimulatedType = 'send' | 'delivery' | 'bounce' | 'complaint' | 'open' | 'click' | 'reject' | 'delay';

const DETAIL_TYPES: Record<SimulatedType, [string, string]> = {
  send: ['Email Sent', 'Send'],
  delivery: ['Email Delivered', 'Delivery'],
  bounce: ['Email Bounced', 'Bounce'],
  complaint: ['Email Complaint Received', 'Complaint'],
  open: ['Email Opened', 'Open'],
  click: ['Email Clicked', 'Click'],
  reject: ['Email Rejected', 'Reject'],
  delay: ['Email Delivery Delayed', 'DeliveryDelay'],
};

export const simulatedTypes = Object.keys(DETAIL_TYPES) as SimulatedType[];

export interface EventOptions {
  bounceType?: string;
  bounceSubType?: string;
  diagnosticCode?: string;
  link?: string;
}

/** What SES publishes after accepting an email, in order, and whether the recipient answers with an auto-reply. */
export interface Outcome {
  events: { type: SimulatedType; options?: EventOptions }[];
  autoReply: boolean;
}

const DELIVERED: Outcome = { events: [{ type: 'send' }, { type: 'delivery' }], autoReply: false };

/**
 * SES's mailbox simulator (<name>[+label]@simulator.amazonses.com), as in AWS: success@ is
 * delivered; bounce@ bounces (Permanent, General); ooto@ is delivered and answers the sender
 * with an out-of-office reply; complaint@ is delivered, then complains (abuse); suppressionlist@
 * bounces as an address on the account-level suppression list (Permanent,
 * OnAccountSuppressionList). Any other address is delivered.
 */
export function simulatorOutcome(recipient: string): Outcome {
  const name = /^([a-z]+)(?:\+[^@]*)?@simulator\.amazonses\.com$/i.exec(recipient.trim())?.[1]?.toLowerCase();
  switch (name) {
    case 'bounce':
      return { events: [{ type: 'send' }, { type: 'bounce', options: { bounceType: 'Permanent', bounceSubType: 'General', diagnosticCode: 'smtp; 550 5.1.1 user unknown' } }], autoReply: false };
    case 'suppressionlist':
      return {
        events: [
          { type: 'send' },
          {
            type: 'bounce',
            options: { bounceType: 'Permanent', bounceSubType: 'OnAccountSuppressionList', diagnosticCode: 'Amazon SES did not send the message to this address because it is on the suppression list for your account.' },
          },
        ],
        autoReply: false,
      };
    case 'complaint':
      return { events: [...DELIVERED.events, { type: 'complaint' }], autoReply: false };
    case 'ooto':
      return { ...DELIVERED, autoReply: true };
    default:
      return DELIVERED;
  }
}

export function sesEvent(mail: SentMail, type: SimulatedType, options: EventOptions = {}): SesEvent {
  const now = new Date().toISOString();
  const [detailType, eventType] = DETAIL_TYPES[type];
  const recipient = mail.destination[0] ?? '';
  const detail: SesEvent['detail'] = {
    eventType,
    mail: {
      timestamp: mail.sentAt,
      messageId: mail.messageId,
      tags: { 'ses:configuration-set': ['mailwright'], 'ses:from-domain': [mail.from.split('@').pop() ?? ''], ...mail.tags },
      ...({ source: mail.from, destination: mail.destination, sendingAccountId: '000000000000', headersTruncated: false, commonHeaders: { from: [mail.from], to: mail.destination, subject: mail.subject } } as object),
    },
  };
  if (type === 'send') detail.send = {};
  if (type === 'delivery') detail.delivery = { timestamp: now, processingTimeMillis: 120, smtpResponse: '250 2.6.0 Message received' };
  if (type === 'bounce') {
    const bounceType = options.bounceType ?? 'Permanent';
    detail.bounce = {
      bounceType,
      bounceSubType: options.bounceSubType ?? (bounceType === 'Permanent' ? 'General' : 'MailboxFull'),
      bouncedRecipients: [{ emailAddress: recipient, diagnosticCode: options.diagnosticCode ?? (bounceType === 'Permanent' ? 'smtp; 550 5.1.1 user unknown' : 'smtp; 452 4.2.2 mailbox full') }],
      timestamp: now,
    };
  }
  if (type === 'complaint') detail.complaint = { complaintFeedbackType: 'abuse', complainedRecipients: [{ emailAddress: recipient }], timestamp: now };
  if (type === 'open') detail.open = { timestamp: now, ipAddress: '127.0.0.1', userAgent: 'Mozilla/5.0 (local simulation)' };
  if (type === 'click') detail.click = { timestamp: now, link: options.link ?? 'https://example.com/', linkTags: {}, ipAddress: '127.0.0.1', userAgent: 'Mozilla/5.0 (local simulation)' };
  if (type === 'reject') detail.reject = { reason: 'Bad content' };
  if (type === 'delay') detail.deliveryDelay = { timestamp: now, delayType: 'MailboxFull', expirationTime: now };
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': detailType,
    source: 'aws.ses',
    account: '000000000000',
    time: now,
    region: process.env.AWS_REGION ?? 'us-east-1',
    resources: ['arn:aws:ses:us-east-1:000000000000:configuration-set/mailwright'],
    detail,
  };
}
