import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { INVITATION_TTL_MS, inviteMember, listInvitations, MAX_PENDING_INVITATIONS } from '../../../../shared/accounts/invitations';
import { ApiError } from '../../../../shared/http/errors';
import { FakeTable } from '../../../support/fake-table';

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const P = 'P1';
const START = Date.parse('2026-11-20T10:00:00.000Z');
const OWNER = '01JD0000000000000000000OWN';

const invite = (n: number, now: number) => inviteMember(P, { email: `person${n}@example.com`, role: 'MEMBER', invitedBy: OWNER }, 'https://dash.example.test', now);

describe('invitations', () => {
  let table: FakeTable;
  beforeEach(() => {
    ddb.reset();
    sqs.reset();
    sqs.on(SendMessageCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
    table = new FakeTable(ddb);
    table.put({ PK: `PROJECT#${P}`, SK: 'PROJECT', id: P, name: 'Acme', createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z' });
  });

  it(`refuses the invitation after ${MAX_PENDING_INVITATIONS} pending ones with 409 TOO_MANY_INVITATIONS; expired ones do not count`, async () => {
    // Prepare: one invitation that has expired by now, then the most a project may have pending
    await invite(0, START - INVITATION_TTL_MS - 1_000);
    for (let n = 1; n <= MAX_PENDING_INVITATIONS; n++) await invite(n, START + n);

    // Act
    const refused = await invite(MAX_PENDING_INVITATIONS + 1, START + 10_000).catch((error: unknown) => error);

    // Assess
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ statusCode: 409, code: 'TOO_MANY_INVITATIONS' });
    const listed = await listInvitations(P, START + 10_000);
    expect(listed.items).toHaveLength(MAX_PENDING_INVITATIONS);
    expect(listed.items[0]!.email).toBe('person1@example.com');
    expect(listed.items.map((invitation) => invitation.email)).not.toContain('person0@example.com');
  });
});
