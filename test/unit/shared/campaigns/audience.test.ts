import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { countAudience } from '../../../../shared/campaigns/audience';
import { toItem as contactItem } from '../../../../shared/contacts/contacts';

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const SEGMENT = '01JD0000000000000000000099';
const at = '2026-11-23T08:00:00.000Z';
const contactId = (n: number) => `01HZY3K8Q2V9J6M4T7W5X0C0${String(n).padStart(2, '0')}`;
const contact = (n: number, subscribed = true) => ({ id: contactId(n), email: `reader${n}@example.com`, subscribed, data: {}, createdAt: at, updatedAt: at });

describe('countAudience', () => {
  beforeEach(() => ddb.reset());

  it('counts a tracked segment page by page: members, subscribed, suppressed, and recipients as the dispatch would queue them', async () => {
    // Prepare: members 1–4 over two pages; 2 unsubscribed, 3 suppressed
    const contacts = [contact(1), contact(2, false), contact(3), contact(4)];
    ddb.on(GetCommand).resolves({ Item: { filters: { operator: 'AND', conditions: [] }, trackMembership: true } });
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [1, 2].map((n) => ({ contactId: contactId(n) })), LastEvaluatedKey: { page: 1 } })
      .resolvesOnce({ Items: [3, 4].map((n) => ({ contactId: contactId(n) })) });
    ddb.on(BatchGetCommand).callsFake((input: { RequestItems: Record<string, { Keys: { SK: string }[] }> }) => {
      const keys = Object.values(input.RequestItems)[0]!.Keys.map((key) => key.SK);
      const items = [...contacts.filter((item) => keys.includes(`CONTACT#${item.id}`)).map((item) => contactItem(P, item)), ...(keys.includes('SUPPRESSED#reader3@example.com') ? [{ SK: 'SUPPRESSED#reader3@example.com' }] : [])];
      return { Responses: { 'mailwright-test': items } };
    });

    // Act
    const counts = await countAudience(P, SEGMENT, Date.parse('2026-11-25T12:00:00.000Z'), 2);

    // Assess
    expect(counts).toEqual({ contacts: 4, subscribed: 3, suppressed: 1, recipients: 2 });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(2);
    expect(ddb.commandCalls(QueryCommand).every((call) => call.args[0].input.Limit === 2)).toBe(true);
  });

  it('counts every contact of the project as the audience of a campaign without a segment', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { total: 7 } });
    ddb.on(QueryCommand).resolves({ Items: [contactItem(P, contact(1)), contactItem(P, contact(2))] });
    ddb.on(BatchGetCommand).resolves({ Responses: { 'mailwright-test': [] } });

    // Act
    const counts = await countAudience(P, null);

    // Assess
    expect(counts).toEqual({ contacts: 7, subscribed: 2, suppressed: 0, recipients: 2 });
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.IndexName).toBe('GSI3');
  });
});
