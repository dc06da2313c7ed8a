import { BatchGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { domainKeys } from './keys';

export type DomainStatus = 'PENDING' | 'VERIFIED' | 'FAILED' | 'TEMPORARY_FAILURE';

export interface SenderDomain {
  id: string;
  domain: string;
  status: DomainStatus;
  createdAt: string;
  verifiedAt: string | null;
}

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

/** Records a domain as already verified: the local stack's seeded sender domain. */
export async function putVerifiedDomain(projectId: string, domain: string): Promise<SenderDomain> {
  const now = new Date().toISOString();
  const record: SenderDomain = { id: ulid(), domain, status: 'VERIFIED', createdAt: now, verifiedAt: now };
  await documentClient
    .send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName, Item: { ...domainKeys.claim(domain), projectId }, ConditionExpression: 'attribute_not_exists(PK) OR projectId = :projectId', ExpressionAttributeValues: { ':projectId': projectId } } },
          { Put: { TableName: tableName, Item: { ...domainKeys.domain(projectId, domain), ...record, domainId: record.id }, ConditionExpression: 'attribute_not_exists(PK)' } },
        ],
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'TransactionCanceledException') throw error;
    });
  return record;
}

function toDomain(item: Record<string, unknown>): SenderDomain {
  return {
    id: item.domainId as string,
    domain: item.domain as string,
    status: item.status as DomainStatus,
    createdAt: item.createdAt as string,
    verifiedAt: (item.verifiedAt as string | null) ?? null,
  };
}
