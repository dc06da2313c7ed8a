import { decodeTime, ulid } from 'ulid';
import { analyticsKeys, utcDay } from '../../../../shared/analytics/keys';
import { emailKeys, emailSortKeyBounds } from '../../../../shared/emails/keys';
import { eventKeys } from '../../../../shared/events/keys';

const P = '01JPROJECT0000000000000000';

describe('activity keys', () => {
  it('keys a recipient reference by the lower-cased address, beside the record\'s own sort key', () => {
    expect(emailKeys.recipient(P, 'Jane@Example.COM', 'E1')).toEqual({ PK: `PROJECT#${P}#EMAILS_TO#jane@example.com`, SK: 'EMAIL#E1' });
    expect(emailKeys.email(P, 'E1')).toEqual({ PK: `PROJECT#${P}`, SK: 'EMAIL#E1' });
    expect(emailKeys.total(P)).toEqual({ PK: `PROJECT#${P}`, SK: 'COUNTER#EMAILS' });
  });

  it('bounds a millisecond range of email ids: every ULID of the range sorts between them', () => {
    const { low, high } = emailSortKeyBounds(Date.parse('2026-11-24T00:00:00.000Z'), Date.parse('2026-11-24T23:59:59.999Z'));

    expect(decodeTime(low.slice('EMAIL#'.length))).toBe(Date.parse('2026-11-24T00:00:00.000Z'));
    expect(decodeTime(high.slice('EMAIL#'.length))).toBe(Date.parse('2026-11-24T23:59:59.999Z'));
    const inside = [Date.parse('2026-11-24T00:00:00.000Z'), Date.parse('2026-11-24T12:00:00.000Z'), Date.parse('2026-11-24T23:59:59.999Z')].map((time) => `EMAIL#${ulid(time)}`);
    const outside = [Date.parse('2026-11-23T23:59:59.999Z'), Date.parse('2026-11-25T00:00:00.000Z')].map((time) => `EMAIL#${ulid(time)}`);
    expect(inside.map((key) => key >= low && key <= high)).toEqual([true, true, true]);
    expect(outside.map((key) => key >= low && key <= high)).toEqual([false, false]);
  });

  it('indexes an event under its email on GSI3 only when it has one', () => {
    expect(eventKeys.indexes(P, 'V1', 'C1', 'email.opened', 'E1')).toEqual({
      GSI1PK: `PROJECT#${P}#CONTACT_EVENTS#C1`,
      GSI1SK: 'V1',
      GSI2PK: `PROJECT#${P}#EVENT_NAME#email.opened`,
      GSI2SK: 'V1',
      GSI3PK: `PROJECT#${P}#EMAIL_EVENTS#E1`,
      GSI3SK: 'V1',
    });
    expect(Object.keys(eventKeys.indexes(P, 'V1', 'C1', 'signed-up'))).toEqual(['GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK']);
  });

  it('keys a day counter by its UTC day', () => {
    expect(analyticsKeys.day(P, '2026-11-24')).toEqual({ PK: `PROJECT#${P}`, SK: 'ANALYTICS_DAY#2026-11-24' });
    expect([utcDay('2026-11-24T23:59:59.999-01:00'), utcDay(Date.parse('2026-11-24T00:00:00Z')), utcDay(new Date('2026-11-23T23:59:59.999Z'))]).toEqual(['2026-11-25', '2026-11-24', '2026-11-23']);
  });
});
