import { sesEvent, simulatorOutcome, type SentMail } from '../../../../../infra/local/emulators/ses-events';

const mail = (to: string): SentMail => ({ messageId: 'm1', from: 'news@example.com', destination: [to], subject: 'Hi', tags: { 'mailwright-email-id': ['E1'] }, sentAt: '2026-11-25T00:00:00.000Z' });

/** The event sequence for a recipient, as (type, bounceType/bounceSubType) pairs. */
const sequence = (to: string) =>
  simulatorOutcome(to).events.map(({ type, options }) => {
    const detail = sesEvent(mail(to), type, options).detail;
    return [detail.eventType, detail.bounce?.bounceType, detail.bounce?.bounceSubType].filter(Boolean).join(':');
  });

describe("SES's mailbox simulator, locally", () => {
  it.each([
    ['success@simulator.amazonses.com', ['Send', 'Delivery'], false],
    ['bounce@simulator.amazonses.com', ['Send', 'Bounce:Permanent:General'], false],
    ['ooto@simulator.amazonses.com', ['Send', 'Delivery'], true],
    ['complaint@simulator.amazonses.com', ['Send', 'Delivery', 'Complaint'], false],
    ['suppressionlist@simulator.amazonses.com', ['Send', 'Bounce:Permanent:OnAccountSuppressionList'], false],
    ['Bounce+order-17@Simulator.AmazonSES.com', ['Send', 'Bounce:Permanent:General'], false],
    ['bounce@example.com', ['Send', 'Delivery'], false],
    ['nobody@simulator.amazonses.com', ['Send', 'Delivery'], false],
  ])('%s publishes %j (auto-reply: %s)', (to, events, autoReply) => {
    // Act
    const outcome = simulatorOutcome(to);

    // Assess
    expect(sequence(to)).toEqual(events);
    expect(outcome.autoReply).toBe(autoReply);
  });

  it('names the recipient in the bounce and the complaint, with their diagnostic', () => {
    // Act
    const [, bounce] = simulatorOutcome('suppressionlist@simulator.amazonses.com').events;
    const detail = sesEvent(mail('suppressionlist@simulator.amazonses.com'), bounce!.type, bounce!.options).detail;
    const complaint = sesEvent(mail('complaint@simulator.amazonses.com'), 'complaint').detail;

    // Assess
    expect(detail.bounce!.bouncedRecipients).toEqual([{ emailAddress: 'suppressionlist@simulator.amazonses.com', diagnosticCode: expect.stringContaining('suppression list') }]);
    expect(complaint.complaint).toMatchObject({ complaintFeedbackType: 'abuse', complainedRecipients: [{ emailAddress: 'complaint@simulator.amazonses.com' }] });
  });
});
