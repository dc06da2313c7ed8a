import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { MessageRejected, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { sendTestEmails } from '../../../../shared/campaigns/test-send';
import { sesTagNames } from '../../../../shared/delivery/ses-tags';
import { contentOf } from '../../../../shared/emails/emails';
import { resetPacerMemory } from '../../../../shared/sending/pacer';
import { C, P, campaignKey, startedCampaignItem } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
const TABLE = 'mailwright-test';

const writtenItems = () => ddb.commandCalls(BatchWriteCommand).flatMap((call) => call.args[0].input.RequestItems![TABLE]!.map((request) => request.PutRequest!.Item!));
const emailUpdates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => String(input.Key!.SK).startsWith('EMAIL#'));
const dayUpdates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => String(input.Key!.SK).startsWith('ANALYTICS_DAY#'));

beforeEach(() => {
  ddb.reset();
  ses.reset();
  resetPacerMemory();
  ddb.on(GetCommand).resolves({});
  ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: startedCampaignItem({ content: { subject: 'News', html: '<p>Hi {{contact.email}}</p>', from: { email: 'news@acme.test' }, replyTo: null } }) });
  ddb.on(BatchWriteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'ses-test-1' });
});

describe('POST /campaigns/{id}/test: test sends are email records of source test', () => {
  it('writes the record SENDING (with its content and recipient reference) before SES, then SENT with the message id, and counts the day\'s sent', async () => {
    // Act
    const result = await sendTestEmails(P, C, { email: 'me@acme.test' });

    // Assess
    const [stored, content, reference, ...more] = writtenItems();
    expect(more).toEqual([]);
    expect(stored).toMatchObject({ PK: `PROJECT#${P}`, subject: '[TEST] News', source: { type: 'test', id: C }, status: 'SENDING', marketing: false, contactId: 'sample', to: { email: 'me@acme.test' } });
    expect(stored).not.toHaveProperty('html');
    expect(content).toMatchObject({ PK: `PROJECT#${P}`, SK: `EMAIL_CONTENT#${stored!.id}` });
    expect(contentOf(content)!.html).toBe('<p>Hi me@acme.test</p>');
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input.Content!.Simple!.Body!.Html!.Data).toBe('<p>Hi me@acme.test</p>');
    expect(reference).toEqual({ PK: `PROJECT#${P}#EMAILS_TO#me@acme.test`, SK: stored!.SK, emailId: stored!.id, sourceType: 'test', sourceId: C });
    const [sent] = emailUpdates();
    expect(sent).toMatchObject({
      Key: { PK: `PROJECT#${P}`, SK: `EMAIL#${stored!.id}` },
      ConditionExpression: '#status = :sending',
      ExpressionAttributeNames: { '#status': 'status', '#f0': 'sesMessageId', '#f1': 'sentAt' },
      ExpressionAttributeValues: expect.objectContaining({ ':status': 'SENT', ':f0': 'ses-test-1' }),
    });
    const sentAt = (sent as UpdateCommandInput).ExpressionAttributeValues![':f1'] as string;
    expect(dayUpdates()).toEqual([
      { TableName: TABLE, Key: { PK: `PROJECT#${P}`, SK: `ANALYTICS_DAY#${sentAt.slice(0, 10)}` }, UpdateExpression: 'ADD #a0 :a0', ExpressionAttributeNames: { '#a0': 'sent' }, ExpressionAttributeValues: { ':a0': 1 } },
    ]);
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input.EmailTags).toEqual(expect.arrayContaining([{ Name: sesTagNames.source, Value: 'test' }, { Name: sesTagNames.email, Value: stored!.id }]));
    expect(result).toEqual({ emails: [{ email: 'me@acme.test', messageId: 'ses-test-1' }] });
  });

  it('leaves the count to SES\'s event when it recorded the send first (the SENT condition fails)', async () => {
    // Prepare
    ddb.on(UpdateCommand, { ConditionExpression: '#status = :sending' }).rejects(new ConditionalCheckFailedException({ message: 'not SENDING', $metadata: {} }));

    // Act
    await sendTestEmails(P, C, { email: 'me@acme.test' });

    // Assess
    expect(emailUpdates()).toHaveLength(1);
    expect(dayUpdates()).toEqual([]);
  });

  it('marks the record FAILED with SES\'s reason when SES refuses it, and answers 422', async () => {
    // Prepare
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'Email address is not verified.', $metadata: { httpStatusCode: 400 } }));

    // Act
    const attempt = sendTestEmails(P, C, { email: 'me@acme.test' });

    // Assess
    await expect(attempt).rejects.toMatchObject({ statusCode: 422, code: 'TEST_SEND_FAILED' });
    expect(emailUpdates()[0]!.ExpressionAttributeValues).toMatchObject({ ':status': 'FAILED', ':f0': expect.any(String) });
    expect(dayUpdates()).toEqual([]);
  });
});
