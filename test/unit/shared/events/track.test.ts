import { splitTrackedData } from '../../../../shared/events/track';

describe('splitTrackedData', () => {
  it('stores persistent and plain values on the contact, and every value on the event', () => {
    const split = splitTrackedData({ plan: 'pro', country: { value: 'NL', persistent: true }, page: { value: '/pricing', persistent: false } });

    expect(split.contactData).toEqual({ plan: 'pro', country: 'NL' });
    expect(split.eventData).toEqual({ plan: 'pro', country: 'NL', page: '/pricing' });
  });

  it('treats other objects as plain values and null as removing a contact key', () => {
    const split = splitTrackedData({ address: { value: 'x', city: 'Utrecht' }, flag: { value: 1, persistent: 'yes' }, old: null });

    expect(split.contactData).toEqual({ address: { value: 'x', city: 'Utrecht' }, flag: { value: 1, persistent: 'yes' }, old: null });
    expect(split.eventData).toEqual({ address: { value: 'x', city: 'Utrecht' }, flag: { value: 1, persistent: 'yes' } });
  });
});
