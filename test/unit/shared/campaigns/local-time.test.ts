import { allMoments, momentIn, momentKey, parseLocalTimeInput, presentDelivery, recipientMoment, releasedAtStart, wallClock, zoneOf, type LocalTimeDelivery } from '../../../../shared/campaigns/local-time';
import { ApiError } from '../../../../shared/http/errors';

const wall = wallClock('2026-12-01T09:00');
const at = (iso: string) => momentKey(Date.parse(iso));

function plan(overrides: Partial<LocalTimeDelivery> = {}): LocalTimeDelivery {
  return { mode: 'LOCAL_TIME', localTime: '2026-12-01T09:00', timeZoneField: 'data.timezone', fallbackTimeZone: 'UTC', planId: 'plan1', moments: allMoments(wall), released: {}, zones: {}, ...overrides };
}

describe('momentIn', () => {
  it.each([
    ['Pacific/Kiritimati', '2026-11-30T19:00:00.000Z'],
    ['Etc/GMT+12', '2026-12-01T21:00:00.000Z'],
    ['UTC', '2026-12-01T09:00:00.000Z'],
    ['Asia/Kathmandu', '2026-12-01T03:15:00.000Z'],
    ['America/New_York', '2026-12-01T14:00:00.000Z'],
  ])('finds when %s reads 09:00 on 1 December', (zone, expected) => {
    // Act
    const instant = momentIn(zone, wall);

    // Assess
    expect(new Date(instant).toISOString()).toBe(expected);
  });

  it('minds daylight saving time: summer and winter offsets, a repeated hour (first occurrence) and a skipped one (the offset before)', () => {
    // Act
    const summer = momentIn('Europe/Berlin', wallClock('2026-07-01T09:00'));
    const repeated = momentIn('America/New_York', wallClock('2026-11-01T01:30'));
    const skipped = momentIn('America/New_York', wallClock('2026-03-08T02:30'));

    // Assess
    expect(new Date(summer).toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(new Date(repeated).toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(new Date(skipped).toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });
});

describe('allMoments', () => {
  it('holds one moment per distinct offset, from UTC+14 to UTC-12, ascending: at most about 40 schedules', () => {
    // Act
    const moments = allMoments(wall);

    // Assess
    expect(moments.length).toBeGreaterThan(30);
    expect(moments.length).toBeLessThanOrEqual(45);
    expect(moments[0]).toBe(at('2026-11-30T19:00:00Z'));
    expect(moments[moments.length - 1]).toBe(at('2026-12-01T21:00:00Z'));
    expect([...moments].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))).toEqual(moments);
    expect(moments).toContain(at('2026-12-01T03:15:00Z'));
  });
});

describe('zoneOf and recipientMoment', () => {
  it('reads the zone from the field, canonical; a missing, invalid or offset value takes the fallback', () => {
    // Prepare
    const delivery = plan({ fallbackTimeZone: 'Europe/Berlin' });

    // Act
    const zones = [{ timezone: 'Pacific/Kiritimati' }, { timezone: 'europe/paris' }, { timezone: 'Mars/Olympus_Mons' }, { timezone: '+05:45' }, { timezone: 42 }, {}].map((data) => zoneOf({ data }, delivery));

    // Assess
    expect(zones).toEqual(['Pacific/Kiritimati', 'Europe/Paris', 'Europe/Berlin', 'Europe/Berlin', 'Europe/Berlin', 'Europe/Berlin']);
  });

  it('reads a nested field and routes to the moment of the plan', () => {
    // Act
    const routed = recipientMoment({ data: { profile: { tz: 'Etc/GMT+12' } } }, plan({ timeZoneField: 'data.profile.tz' }));

    // Assess
    expect(routed).toEqual({ zone: 'Etc/GMT+12', moment: at('2026-12-01T21:00:00Z') });
  });

  it('takes the fallback\'s moment for a zone whose moment is not in the plan', () => {
    // Act
    const routed = recipientMoment({ data: { timezone: 'Asia/Kathmandu' } }, plan({ moments: [at('2026-11-30T19:00:00Z'), at('2026-12-01T09:00:00Z')] }));

    // Assess
    expect(routed).toEqual({ zone: 'Asia/Kathmandu', moment: at('2026-12-01T09:00:00Z') });
  });
});

describe('parseLocalTimeInput', () => {
  it('takes the defaults data.timezone and UTC', () => {
    // Act
    const parsed = parseLocalTimeInput({ localTime: '2026-12-01T09:00:00' });

    // Assess
    expect(parsed).toEqual({ localTime: '2026-12-01T09:00', wall, timeZoneField: 'data.timezone', fallbackTimeZone: 'UTC' });
  });

  it('refuses an impossible date, a field outside data and an unknown fallback, each on its field', () => {
    // Act
    let error: unknown;
    try {
      parseLocalTimeInput({ localTime: '2026-02-30T09:00', timeZoneField: 'email', fallbackTimeZone: 'Mars/Olympus_Mons' });
    } catch (caught) {
      error = caught;
    }

    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(422);
    expect((error as ApiError).errors?.map((detail) => detail.field)).toEqual(['localTime', 'timeZoneField', 'fallbackTimeZone']);
  });
});

describe('releasedAtStart and presentDelivery', () => {
  it('releases the first moment and every moment passed at the start, keeping earlier marks', () => {
    // Prepare
    const delivery = plan({ released: { [at('2026-12-01T09:00:00Z')]: '2026-12-01T09:00:01.000Z' } });

    // Act
    const { delivery: started } = releasedAtStart({ delivery }, '2026-11-30T19:45:00.000Z');

    // Assess
    expect(Object.keys(started!.released).sort()).toEqual([at('2026-11-30T19:00:00Z'), at('2026-11-30T19:15:00Z'), at('2026-12-01T09:00:00Z')].sort());
    expect(started!.released[at('2026-12-01T09:00:00Z')]).toBe('2026-12-01T09:00:01.000Z');
    expect(releasedAtStart({}, '2026-11-30T19:45:00.000Z')).toEqual({});
  });

  it('shows each zone with its moment, recipients and status, earliest first; CANCELLED for the unreleased of a cancelled campaign', () => {
    // Prepare
    const delivery = plan({ released: { [at('2026-11-30T19:00:00Z')]: '2026-11-30T19:00:01.000Z' }, zones: { UTC: 3, 'Etc/GMT+12': 1, 'Pacific/Kiritimati': 2 } });

    // Act
    const sending = presentDelivery(delivery, 'SENDING');
    const cancelled = presentDelivery(delivery, 'CANCELLED');

    // Assess
    expect(sending).toEqual({
      mode: 'LOCAL_TIME',
      localTime: '2026-12-01T09:00',
      timeZoneField: 'data.timezone',
      fallbackTimeZone: 'UTC',
      startsAt: '2026-11-30T19:00:00.000Z',
      endsAt: '2026-12-01T21:00:00.000Z',
      zones: [
        { timeZone: 'Pacific/Kiritimati', at: '2026-11-30T19:00:00.000Z', recipients: 2, status: 'SENT' },
        { timeZone: 'UTC', at: '2026-12-01T09:00:00.000Z', recipients: 3, status: 'PENDING' },
        { timeZone: 'Etc/GMT+12', at: '2026-12-01T21:00:00.000Z', recipients: 1, status: 'PENDING' },
      ],
    });
    expect(cancelled.zones.map((zone) => zone.status)).toEqual(['SENT', 'CANCELLED', 'CANCELLED']);
  });
});
