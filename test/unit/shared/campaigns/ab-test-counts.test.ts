import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { countVariantOutcome } from '../../../../shared/campaigns/ab-test-counts';
import type { EmailRecord } from '../../../../shared/emails/emails';
import { C, P, statsKey } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);

beforeEach(() => ddb.reset());

describe('countVariantOutcome', () => {
  it('counts a sample email\'s sent and delivered on its variant, and nothing for mail without one', async () => {
    // Prepare
    ddb.on(UpdateCommand).resolves({});
    const email = { projectId: P, source: { type: 'campaign', id: C }, abVariant: 1 } as EmailRecord;

    // Act
    await countVariantOutcome({ email, metrics: ['sent'] });
    await countVariantOutcome({ email, metrics: ['opened'] });
    await countVariantOutcome({ email: { ...email, abVariant: undefined }, metrics: ['sent'] });

    // Assess
    const updates = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.Key).toEqual(statsKey);
    expect(Object.values(updates[0]!.ExpressionAttributeNames ?? {})).toContain('ab1_sent');
  });
});
