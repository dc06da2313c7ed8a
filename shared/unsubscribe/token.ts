import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConfigError, requiredEnv } from '../config/env';
import { variables } from '../config/variables';

/**
 * One-click unsubscribe links: `<PUBLIC_API_URL>/unsubscribe/<token>`, where the token names the
 * project, the contact and (for campaign mail) the campaign, signed with HMAC-SHA256 under
 * UNSUBSCRIBE_SECRET (a secret the stack generates; locally a generated file, see
 * infra/local). No API key is involved; a changed character fails the signature.
 */
const config = {
  secret: requiredEnv(variables.unsubscribeSecret),
  publicApiUrl: requiredEnv(variables.publicApiUrl).replace(/\/+$/, ''),
};
if (config.secret.length < 32) throw new ConfigError('Environment variable UNSUBSCRIBE_SECRET must be at least 32 characters');

export interface UnsubscribeSubject {
  projectId: string;
  contactId: string;
  /** The campaign whose mail carried the link: its stats count the unsubscribe. */
  campaignId?: string;
}

/** 128 bits of the HMAC: unguessable, and short enough for a header line. */
const SIGNATURE_BYTES = 16;
const ID = /^[0-9A-Za-z_-]{1,64}$/;

const sign = (payload: string) => createHmac('sha256', config.secret).update(`unsubscribe:${payload}`).digest().subarray(0, SIGNATURE_BYTES);

export function unsubscribeToken({ projectId, contactId, campaignId }: UnsubscribeSubject): string {
  const payload = Buffer.from([projectId, contactId, campaignId ?? ''].join('.')).toString('base64url');
  return `${payload}.${sign(payload).toString('base64url')}`;
}

/**
 * The bytes of canonical unpadded base64url, or undefined. Node's decoder skips characters
 * outside the alphabet and ignores the unused low bits of the last character, so several
 * spellings decode to the same bytes; only the one the encoder writes is accepted, so that any
 * changed character invalidates a token.
 */
function decodeBase64url(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/** The subject of a token this service signed, or undefined for anything else. */
export function verifyUnsubscribeToken(token: string): UnsubscribeSubject | undefined {
  if (token.length > 300) return undefined;
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return undefined;
  const given = decodeBase64url(signature);
  const expected = sign(payload);
  if (!given || given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const decoded = decodeBase64url(payload);
  if (!decoded) return undefined;
  const [projectId, contactId, campaignId, ...extra] = decoded.toString('utf8').split('.');
  if (!projectId || !contactId || campaignId === undefined || extra.length > 0 || ![projectId, contactId, campaignId || 'none'].every((id) => ID.test(id))) return undefined;
  return { projectId, contactId, ...(campaignId ? { campaignId } : {}) };
}

export const unsubscribeUrl = (subject: UnsubscribeSubject) => `${config.publicApiUrl}/unsubscribe/${unsubscribeToken(subject)}`;

/** RFC 8058 one-click unsubscribe headers for marketing mail (Gmail and Yahoo require them of bulk senders). */
export const unsubscribeHeaders = (url: string) => [
  { name: 'List-Unsubscribe', value: `<${url}>` },
  { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
];
