import { BatchGetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { ApiError, conflict, notFound } from '../http/errors';
import { logger } from '../observability/logger';
import { domainKeys } from './keys';
import { createIdentity, deleteIdentity, getIdentity, type IdentityState } from './ses-identities';

export type DomainStatus = 'PENDING' | 'VERIFIED' | 'FAILED' | 'TEMPORARY_FAILURE';

export interface DnsRecord {
  type: 'CNAME' | 'TXT' | 'MX';
  name: string;
  value: string;
  purpose: string;
}

export interface SenderDomain {
  id: string;
  domain: string;
  status: DomainStatus;
  records: DnsRecord[];
  createdAt: string;
  verifiedAt: string | null;
  /** When the status was last read from SES. */
  checkedAt: string | null;
}

/** A pending domain's status is read from SES at most this often, however often it is listed. */
const REFRESH_INTERVAL_MS = 2_000;

/** The domain of an address and each parent that could be a verified domain (a.b.c → a.b.c, b.c). */
export function candidateDomains(email: string): string[] {
  const labels = email.slice(email.lastIndexOf('@') + 1).toLowerCase().split('.');
  return labels.slice(0, -1).map((_, index) => labels.slice(index).join('.'));
}

/**
 * The project's VERIFIED domain that covers this address (the domain itself or a parent), if
 * any: one BatchGetItem. A verified domain covers its subdomains, as in SES.
 */
export async function findVerifiedDomainFor(projectId: string, email: string): Promise<SenderDomain | undefined> {
  const candidates = candidateDomains(email);
  if (candidates.length === 0) return undefined;
  const { Responses } = await documentClient.send(
    new BatchGetCommand({ RequestItems: { [tableName]: { Keys: candidates.map((domain) => domainKeys.domain(projectId, domain)), ConsistentRead: true } } }),
  );
  const found = (Responses?.[tableName] ?? []).map(toDomain).filter((domain) => domain.status === 'VERIFIED');
  return candidates.map((name) => found.find((domain) => domain.domain === name)).find(Boolean);
}

/** 403 FROM_DOMAIN_NOT_VERIFIED unless a verified domain of the project covers the address (sends, campaigns). */
export async function assertVerifiedSender(projectId: string, email: string): Promise<void> {
  if (await findVerifiedDomainFor(projectId, email)) return;
  throw new ApiError(403, 'FROM_DOMAIN_NOT_VERIFIED', `The domain of ${email} is not a verified domain of this project`, {
    suggestion: 'Add the domain with POST /domains and publish its DNS records, or send from a verified domain.',
  });
}

/**
 * POST /domains: claims the domain for the project (a domain belongs to one project at most, so
 * no project can send as another's), creates the SES identity with Easy DKIM and stores the DNS
 * records to publish.
 */
export async function createDomain(projectId: string, domain: string): Promise<SenderDomain> {
  const now = new Date().toISOString();
  const id = ulid();
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName, Item: { ...domainKeys.claim(domain), projectId, domainId: id }, ConditionExpression: 'attribute_not_exists(PK)' } },
          { Put: { TableName: tableName, Item: { ...domainKeys.domain(projectId, domain), domainId: id, domain, status: 'PENDING', records: [], createdAt: now, verifiedAt: null, checkedAt: null }, ConditionExpression: 'attribute_not_exists(PK)' } },
        ],
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'TransactionCanceledException') throw error;
    const mine = (await listStoredDomains(projectId)).some((stored) => stored.domain === domain);
    throw mine ? conflict('DOMAIN_EXISTS', `${domain} is already a domain of this project`) : conflict('DOMAIN_TAKEN', `${domain} belongs to another project`);
  }
  let identity: IdentityState;
  try {
    identity = await createIdentity(domain);
  } catch (error) {
    await releaseClaim(projectId, domain);
    throw error;
  }
  return saveIdentityState(projectId, { id, domain, status: 'PENDING', records: [], createdAt: now, verifiedAt: null, checkedAt: null }, identity);
}

/** GET /domains: every domain of the project, pending ones refreshed from SES (at most every 2 s each). */
export async function listDomains(projectId: string): Promise<SenderDomain[]> {
  return Promise.all((await listStoredDomains(projectId)).map((domain) => refreshIfDue(projectId, domain)));
}

export async function getDomain(projectId: string, id: string): Promise<SenderDomain> {
  const domain = (await listStoredDomains(projectId)).find((stored) => stored.id === id);
  if (!domain) throw notFound('Domain');
  return refreshIfDue(projectId, domain);
}

/**
 * DELETE /domains/{id}: the record and the claim go at once, so sending from the domain stops
 * with the next request; the SES identity goes too (no other project can hold the domain).
 */
export async function deleteDomain(projectId: string, id: string): Promise<void> {
  const domain = (await listStoredDomains(projectId)).find((stored) => stored.id === id);
  if (!domain) throw notFound('Domain');
  await releaseClaim(projectId, domain.domain);
  await deleteIdentity(domain.domain);
}

/** Records a domain as already verified: the local stack's seeded sender domain. */
export async function putVerifiedDomain(projectId: string, domain: string): Promise<void> {
  const now = new Date().toISOString();
  await documentClient
    .send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName, Item: { ...domainKeys.claim(domain), projectId }, ConditionExpression: 'attribute_not_exists(PK) OR projectId = :projectId', ExpressionAttributeValues: { ':projectId': projectId } } },
          {
            Put: {
              TableName: tableName,
              Item: { ...domainKeys.domain(projectId, domain), domainId: ulid(), domain, status: 'VERIFIED', records: [], createdAt: now, verifiedAt: now, checkedAt: now },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ],
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'TransactionCanceledException') throw error;
    });
}

async function listStoredDomains(projectId: string): Promise<SenderDomain[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': domainKeys.domain(projectId, '').PK, ':prefix': domainKeys.domainPrefix },
      ConsistentRead: true,
    }),
  );
  return Items.map(toDomain);
}

async function refreshIfDue(projectId: string, domain: SenderDomain): Promise<SenderDomain> {
  if (domain.status === 'VERIFIED' || (domain.checkedAt && Date.now() - Date.parse(domain.checkedAt) < REFRESH_INTERVAL_MS)) return domain;
  try {
    const identity = await getIdentity(domain.domain);
    return identity ? await saveIdentityState(projectId, domain, identity) : domain;
  } catch (error) {
    logger.warn('Could not refresh a domain from SES; showing the stored status', { domain: domain.domain, error: error as Error });
    return domain;
  }
}

async function saveIdentityState(projectId: string, domain: SenderDomain, identity: IdentityState): Promise<SenderDomain> {
  const now = new Date().toISOString();
  const status = statusOf(identity);
  const next: SenderDomain = {
    ...domain,
    status,
    records: dnsRecords(domain.domain, identity.dkimTokens),
    checkedAt: now,
    verifiedAt: status === 'VERIFIED' ? (domain.verifiedAt ?? now) : domain.verifiedAt,
  };
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: domainKeys.domain(projectId, domain.domain),
      UpdateExpression: 'SET #status = :status, records = :records, checkedAt = :checkedAt, verifiedAt = :verifiedAt',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': next.status, ':records': next.records, ':checkedAt': now, ':verifiedAt': next.verifiedAt },
    }),
  );
  return next;
}

function statusOf(identity: IdentityState): DomainStatus {
  if (identity.verifiedForSending || identity.dkimStatus === 'SUCCESS') return 'VERIFIED';
  if (identity.dkimStatus === 'FAILED') return 'FAILED';
  if (identity.dkimStatus === 'TEMPORARY_FAILURE') return 'TEMPORARY_FAILURE';
  return 'PENDING';
}

/** The records to publish: Easy DKIM's three CNAMEs, and the recommended SPF and DMARC. */
export function dnsRecords(domain: string, dkimTokens: string[]): DnsRecord[] {
  return [
    ...dkimTokens.map((token) => ({ type: 'CNAME' as const, name: `${token}._domainkey.${domain}`, value: `${token}.dkim.amazonses.com`, purpose: 'DKIM' })),
    { type: 'TXT', name: domain, value: 'v=spf1 include:amazonses.com ~all', purpose: 'SPF (recommended)' },
    { type: 'TXT', name: `_dmarc.${domain}`, value: 'v=DMARC1; p=none;', purpose: 'DMARC (recommended)' },
  ];
}

async function releaseClaim(projectId: string, domain: string): Promise<void> {
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName, Key: domainKeys.domain(projectId, domain) } },
        { Delete: { TableName: tableName, Key: domainKeys.claim(domain), ConditionExpression: 'attribute_not_exists(PK) OR projectId = :projectId', ExpressionAttributeValues: { ':projectId': projectId } } },
      ],
    }),
  );
}

function toDomain(item: Record<string, unknown>): SenderDomain {
  return {
    id: item.domainId as string,
    domain: item.domain as string,
    status: item.status as DomainStatus,
    records: (item.records as DnsRecord[] | undefined) ?? [],
    createdAt: item.createdAt as string,
    verifiedAt: (item.verifiedAt as string | null | undefined) ?? null,
    checkedAt: (item.checkedAt as string | null | undefined) ?? null,
  };
}

