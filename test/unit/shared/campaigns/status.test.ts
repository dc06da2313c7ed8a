import { ApiError } from '../../../../shared/http/errors';
import { campaignStatuses, nextStatus, queuedMailFates, transitions, type CampaignAction } from '../../../../shared/campaigns/status';
import { scheduleTime } from '../../../../shared/campaigns/campaigns';

describe('campaign statuses', () => {
  it.each([
    ['edit', 'DRAFT', 'DRAFT'],
    ['edit', 'SCHEDULED', 'SCHEDULED'],
    ['delete', 'DRAFT', 'DRAFT'],
    ['send', 'DRAFT', 'SENDING'],
    ['send', 'SCHEDULED', 'SENDING'],
    ['send', 'PAUSED', 'SENDING'],
    ['schedule', 'DRAFT', 'SCHEDULED'],
    ['schedule', 'SCHEDULED', 'SCHEDULED'],
    ['fire', 'SCHEDULED', 'SENDING'],
    ['cancel', 'SCHEDULED', 'DRAFT'],
    ['cancel', 'SENDING', 'CANCELLED'],
    ['pause', 'SENDING', 'PAUSED'],
    ['cancel', 'PAUSED', 'CANCELLED'],
    ['complete', 'SENDING', 'SENT'],
  ] as const)('%s from %s leads to %s', (action, from, to) => {
    expect(nextStatus(action, from)).toBe(to);
  });

  it('refuses every other transition with 409 INVALID_CAMPAIGN_STATE naming the current status', () => {
    // Prepare
    const refused = (Object.keys(transitions) as CampaignAction[]).flatMap((action) => campaignStatuses.filter((status) => !transitions[action][status]).map((status) => [action, status] as const));
    // Act / Assess
    expect(refused.length).toBeGreaterThan(20);
    for (const [action, status] of refused) {
      let error: unknown;
      try {
        nextStatus(action, status);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ statusCode: 409, code: 'INVALID_CAMPAIGN_STATE' });
      expect((error as Error).message).toContain(status);
    }
  });

  it.each([
    ['edit', 'Cannot edit a campaign that is PAUSED; only a DRAFT or SCHEDULED campaign can be'],
    ['delete', 'Cannot delete a campaign that is PAUSED; only a DRAFT campaign can be'],
    ['schedule', 'Cannot schedule a campaign that is PAUSED; only a DRAFT or SCHEDULED campaign can be'],
    ['complete', 'Cannot complete a campaign that is PAUSED; only a SENDING campaign can be'],
    ['pause', 'Cannot pause a campaign that is PAUSED; only a SENDING campaign can be'],
  ] as const)('refuses to %s a PAUSED campaign with 409 naming PAUSED', (action, message) => {
    expect(() => nextStatus(action, 'PAUSED')).toThrow(expect.objectContaining({ statusCode: 409, code: 'INVALID_CAMPAIGN_STATE', message }));
  });

  it('lets queued mail leave only while the campaign is SENDING (or SENT), and parks it while PAUSED', () => {
    expect(Object.entries(queuedMailFates).filter(([, fate]) => fate === 'send').map(([status]) => status).sort()).toEqual(['SENDING', 'SENT']);
    expect(Object.entries(queuedMailFates).filter(([, fate]) => fate === 'park').map(([status]) => status)).toEqual(['PAUSED']);
  });
});

describe('scheduleTime', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');

  it('takes a time in the future within 365 days', () => {
    expect(scheduleTime('2026-11-23T10:00:05Z', now).toISOString()).toBe('2026-11-23T10:00:05.000Z');
    expect(scheduleTime('2027-11-23T10:00:00+00:00', now).getTime()).toBe(now + 365 * 86_400_000);
  });

  it.each([
    ['2026-11-23T09:59:59Z', 'IN_THE_PAST'],
    ['2026-11-23T10:00:00Z', 'IN_THE_PAST'],
    ['2027-11-23T10:00:01Z', 'BEYOND_HORIZON'],
  ])('refuses %s with 422 %s on scheduledFor', (value, code) => {
    expect(() => scheduleTime(value, now)).toThrow(expect.objectContaining({ statusCode: 422, errors: [expect.objectContaining({ field: 'scheduledFor', code })] }));
  });
});
