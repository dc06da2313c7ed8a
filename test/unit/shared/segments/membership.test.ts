import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { reevaluateContact, segmentLoader } from '../../../../shared/segments/membership';
import { FakeTable } from '../../../support/fake-table';

const ddb = mockClient(DynamoDBDocumentClient);

const P = 'P1';
const SEGMENT = '01JSEGMENT000000000000000A';
const CONTACT = '01JCONTACT000000000000000A';
const memberKey = { PK: `PROJECT#${P}`, SK: `SEGMENT_MEMBER#${SEGMENT}#${CONTACT}` };
const contactItem = (plan: string, updatedAt: string) => ({
  PK: `PROJECT#${P}`,
  SK: `CONTACT#${CONTACT}`,
  contactId: CONTACT,
  email: 'ada@example.com',
  subscribed: true,
  data: { plan },
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt,
});

describe('reevaluateContact', () => {
  beforeEach(() => {
    ddb.reset();
  });

  it('evaluates again when the contact changed between its read and its write, so the newest state decides', async () => {
    // Prepare: a tracked segment of pro contacts; the contact is pro when read, free by the time the write lands.
    const table = new FakeTable(ddb);
    table.put({
      PK: `PROJECT#${P}`,
      SK: `SEGMENT#${SEGMENT}`,
      segmentId: SEGMENT,
      name: 'Pro',
      filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] },
      trackMembership: true,
      filtersVersion: 2,
      memberCount: 0,
      createdAt: '2026-11-01T00:00:00.000Z',
    });
    table.put(contactItem('pro', '2026-11-02T00:00:00.000Z'));
    table.hold('first write', (command) => command === 'TransactWrite');

    // Act
    const evaluation = reevaluateContact(P, CONTACT, segmentLoader());
    for (let waited = 0; !table.arrived('first write') && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    const arrived = table.arrived('first write');
    table.put(contactItem('free', '2026-11-03T00:00:00.000Z'));
    table.release('first write');
    const outcome = await evaluation;

    // Assess
    expect(arrived).toBe(true);
    expect(outcome).toEqual({ entered: 1, exited: 1 });
    expect(table.get(memberKey)).toBeUndefined();
    expect(table.get({ PK: `PROJECT#${P}`, SK: `SEGMENT#${SEGMENT}` })).toMatchObject({ memberCount: 0 });
    expect(table.history.filter((item) => String(item.SK).startsWith('EVENT#')).map((item) => item.name)).toEqual(['segment.entered', 'segment.exited']);
  });

  it('puts the member with the filters version and the view it was decided from', async () => {
    // Prepare
    const table = new FakeTable(ddb);
    table.put({
      PK: `PROJECT#${P}`,
      SK: `SEGMENT#${SEGMENT}`,
      segmentId: SEGMENT,
      name: 'Pro',
      filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] },
      trackMembership: true,
      filtersVersion: 3,
      memberCount: 0,
      createdAt: '2026-11-01T00:00:00.000Z',
    });
    table.put(contactItem('pro', '2026-11-02T00:00:00.000Z'));

    // Act
    await reevaluateContact(P, CONTACT, segmentLoader());

    // Assess
    expect(table.get(memberKey)).toMatchObject({ contactId: CONTACT, segmentId: SEGMENT, filtersVersion: 3, seenUpdatedAt: '2026-11-02T00:00:00.000Z', seenEventAt: 0 });
  });
});
