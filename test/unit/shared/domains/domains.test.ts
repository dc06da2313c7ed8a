import { AlreadyExistsException, CreateEmailIdentityCommand, DeleteEmailIdentityCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { candidateDomains, createDomain, deleteDomain, dnsRecords, findVerifiedDomainFor, listDomains } from '../../../../shared/domains/domains';

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
const stored = (fields: Record<string, unknown>) => ({ domainId: 'D1', domain: 'mail.acme.test', status: 'PENDING', records: [], createdAt: '2026-01-01T00:00:00.000Z', verifiedAt: null, checkedAt: null, ...fields });

describe('sender domains', () => {
  beforeEach(() => {
    ddb.reset();
    ses.reset();
  });

  it('claims the domain globally and for the project, creates the SES identity and stores its DKIM records', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    ses.on(CreateEmailIdentityCommand).resolves({ VerifiedForSendingStatus: false, DkimAttributes: { Status: 'PENDING', Tokens: ['t1', 't2', 't3'] } });

    // Act
    const domain = await createDomain('P1', 'mail.acme.test');

    // Assess
    const claim = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(claim[0]!.Put).toMatchObject({ Item: { PK: 'DOMAIN#mail.acme.test', SK: 'CLAIM', projectId: 'P1' }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(claim[1]!.Put).toMatchObject({ Item: { PK: 'PROJECT#P1', SK: 'DOMAIN#mail.acme.test', status: 'PENDING' }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(ses.commandCalls(CreateEmailIdentityCommand)[0]!.args[0].input).toEqual({ EmailIdentity: 'mail.acme.test' });
    expect(domain.status).toBe('PENDING');
    expect(domain.records.slice(0, 3)).toEqual([
      { type: 'CNAME', name: 't1._domainkey.mail.acme.test', value: 't1.dkim.amazonses.com', purpose: 'DKIM' },
      { type: 'CNAME', name: 't2._domainkey.mail.acme.test', value: 't2.dkim.amazonses.com', purpose: 'DKIM' },
      { type: 'CNAME', name: 't3._domainkey.mail.acme.test', value: 't3.dkim.amazonses.com', purpose: 'DKIM' },
    ]);
  });

  it('reads an identity that already exists in SES instead of failing', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    ses.on(CreateEmailIdentityCommand).rejects(new AlreadyExistsException({ message: 'exists', $metadata: {} }));
    ses.on(GetEmailIdentityCommand).resolves({ VerifiedForSendingStatus: true, DkimAttributes: { Status: 'SUCCESS', Tokens: ['a', 'b', 'c'] } });

    const domain = await createDomain('P1', 'mail.acme.test');

    expect(domain.status).toBe('VERIFIED');
    expect(domain.verifiedAt).toEqual(expect.any(String));
  });

  it('answers 409 DOMAIN_TAKEN when another project holds the domain', async () => {
    ddb.on(TransactWriteCommand).rejects(new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] }));
    ddb.on(QueryCommand).resolves({ Items: [] });

    await expect(createDomain('P2', 'mail.acme.test')).rejects.toMatchObject({ statusCode: 409, code: 'DOMAIN_TAKEN' });
    expect(ses.calls()).toHaveLength(0);
  });

  it.each([
    [{ VerifiedForSendingStatus: false, DkimAttributes: { Status: 'PENDING' } }, 'PENDING'],
    [{ VerifiedForSendingStatus: true, DkimAttributes: { Status: 'SUCCESS' } }, 'VERIFIED'],
    [{ VerifiedForSendingStatus: false, DkimAttributes: { Status: 'FAILED' } }, 'FAILED'],
    [{ VerifiedForSendingStatus: false, DkimAttributes: { Status: 'TEMPORARY_FAILURE' } }, 'TEMPORARY_FAILURE'],
  ])('refreshes a pending domain from SES: %j → %s', async (identity, status) => {
    ddb.on(QueryCommand).resolves({ Items: [stored({})] });
    ddb.on(UpdateCommand).resolves({});
    ses.on(GetEmailIdentityCommand).resolves(identity as never);

    const [domain] = await listDomains('P1');

    expect(domain!.status).toBe(status);
  });

  it('does not ask SES about a domain checked moments ago, nor about a verified one', async () => {
    ddb.on(QueryCommand).resolves({ Items: [stored({ checkedAt: new Date().toISOString() }), stored({ domainId: 'D2', domain: 'b.test', status: 'VERIFIED' })] });

    await listDomains('P1');

    expect(ses.calls()).toHaveLength(0);
  });

  it('deletes the record, the claim and the SES identity', async () => {
    ddb.on(QueryCommand).resolves({ Items: [stored({})] });
    ddb.on(TransactWriteCommand).resolves({});
    ses.on(DeleteEmailIdentityCommand).resolves({});

    await deleteDomain('P1', 'D1');

    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.map((item) => item.Delete!.Key)).toEqual([
      { PK: 'PROJECT#P1', SK: 'DOMAIN#mail.acme.test' },
      { PK: 'DOMAIN#mail.acme.test', SK: 'CLAIM' },
    ]);
    expect(ses.commandCalls(DeleteEmailIdentityCommand)[0]!.args[0].input).toEqual({ EmailIdentity: 'mail.acme.test' });
  });

  it('finds the verified domain covering an address, parents included, in one BatchGetItem', async () => {
    ddb.on(BatchGetCommand).resolves({ Responses: { 'mailwright-test': [stored({ domain: 'acme.test', status: 'VERIFIED' })] } });

    const found = await findVerifiedDomainFor('P1', 'hello@news.mail.acme.test');

    expect(found?.domain).toBe('acme.test');
    const keys = ddb.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems!['mailwright-test']!.Keys;
    expect(keys).toEqual(['news.mail.acme.test', 'mail.acme.test', 'acme.test'].map((domain) => ({ PK: 'PROJECT#P1', SK: `DOMAIN#${domain}` })));
  });

  it('never treats a bare TLD as a sender domain', () => {
    expect(candidateDomains('a@b.example.com')).toEqual(['b.example.com', 'example.com']);
    expect(dnsRecords('x.test', []).map((record) => record.purpose)).toEqual(['SPF (recommended)', 'DMARC (recommended)']);
  });
});
