import * as v from 'valibot';
import { abTestSchema, bestVariant, checkAbTest, presentAbTest, sampleVariant, splitPage, variantContent, variantStats } from '../../../../shared/campaigns/ab-test-model';
import { ApiError } from '../../../../shared/http/errors';

const test2 = { variants: [{ subject: 'A' }, { subject: 'B' }], samplePercent: 50, metric: 'opens' as const, waitMinutes: 1 };

describe('the A/B sample', () => {
  it('takes exactly floor(N × samplePercent / 100) recipients, spread over the audience, the variants in turn', () => {
    // Prepare
    const positions = Array.from({ length: 20 }, (_, index) => index);

    // Act
    const half = positions.map((position) => sampleVariant(position, test2));
    const tenth = Array.from({ length: 100 }, (_, position) => sampleVariant(position, { samplePercent: 10, variants: [{ subject: 'A' }, { subject: 'B' }, { subject: 'C' }] }));

    // Assess
    expect(half).toEqual(positions.map((position) => (position % 2 === 1 ? ((position - 1) / 2) % 2 : undefined)));
    expect(half.filter((variant) => variant === 0)).toHaveLength(5);
    expect(half.filter((variant) => variant === 1)).toHaveLength(5);
    expect(tenth.filter((variant) => variant !== undefined)).toHaveLength(10);
    expect([0, 1, 2].map((variant) => tenth.filter((value) => value === variant).length)).toEqual([4, 3, 3]);
  });

  it('splits a page from its offset the same way on a redo, and sends everyone without a test', () => {
    // Prepare
    const recipients = ['c0', 'c1', 'c2', 'c3'];

    // Act
    const first = splitPage(test2, 0, recipients);
    const later = splitPage(test2, 4, recipients);
    const again = splitPage(test2, 4, recipients);
    const none = splitPage(null, 4, recipients);

    // Assess
    expect(first).toEqual({ send: [{ recipient: 'c1', variant: 0 }, { recipient: 'c3', variant: 1 }], hold: ['c0', 'c2'] });
    expect(later).toEqual({ send: [{ recipient: 'c1', variant: 0 }, { recipient: 'c3', variant: 1 }], hold: ['c0', 'c2'] });
    expect(again).toEqual(later);
    expect(none).toEqual({ send: recipients.map((recipient) => ({ recipient })), hold: [] });
    expect(variantContent({ subject: 'Own', html: 'x' }, test2, 1)).toEqual({ subject: 'B', html: 'x' });
    expect(variantContent({ subject: 'Own', html: 'x' }, test2, undefined)).toEqual({ subject: 'Own', html: 'x' });
  });
});

describe('the A/B figures and winner', () => {
  it('reads each variant from its counters, rates in percent of its sent', () => {
    // Prepare
    const item = { ab0_sent: 5, ab0_delivered: 5, ab0_opened: 1, ab1_sent: 4, ab1_delivered: 3, ab1_opened: 3, ab1_clicked: 1 };

    // Act
    const stats = variantStats({ abTest: { ...test2, phase: 'WINNER', winner: 1 } }, item);

    // Assess
    expect(stats).toEqual([
      { variant: 0, subject: 'A', sent: 5, delivered: 5, opened: 1, clicked: 0, openRate: 20, clickRate: 0, winner: false },
      { variant: 1, subject: 'B', sent: 4, delivered: 3, opened: 3, clicked: 1, openRate: 75, clickRate: 25, winner: true },
    ]);
    expect(variantStats({ abTest: null }, item)).toEqual([]);
  });

  it('picks the highest rate of the metric; a tie goes to the first', () => {
    // Prepare
    const stats = variantStats({ abTest: { ...test2, variants: [{ subject: 'A' }, { subject: 'B' }, { subject: 'C' }] } }, { ab0_sent: 4, ab0_opened: 1, ab0_clicked: 2, ab1_sent: 4, ab1_opened: 2, ab1_clicked: 2, ab2_sent: 4, ab2_opened: 2 });

    // Act & Assess
    expect(bestVariant(stats, 'opens')).toBe(1);
    expect(bestVariant(stats, 'clicks')).toBe(0);
    expect(bestVariant(variantStats({ abTest: test2 }, {}), 'opens')).toBe(0);
  });
});

describe('the A/B settings', () => {
  it('takes 2–4 subjects, a 5–50 % sample, opens or clicks, a 1–10080 minute wait', () => {
    // Act
    const good = v.safeParse(abTestSchema, test2);
    const bad = v.safeParse(abTestSchema, { variants: [{ subject: 'A' }], samplePercent: 60, metric: 'views', waitMinutes: 10_081 }, { abortEarly: false });
    const fractional = v.safeParse(abTestSchema, { ...test2, samplePercent: 12.5 });

    // Assess
    expect(good.success).toBe(true);
    expect(bad.issues!.map((issue) => issue.message)).toEqual([
      'abTest.variants must have at least 2 subjects',
      'abTest.samplePercent must be at most 50',
      'abTest.metric must be one of opens, clicks',
      'abTest.waitMinutes must be at most 10080',
    ]);
    expect(fractional.success).toBe(false);
  });

  it('refuses a spread-out send beside a test, naming both fields, and shows the phase as SAMPLE once sending started', () => {
    // Act
    const refused = (() => {
      try {
        checkAbTest({ abTest: test2, spreadOverMinutes: 60 });
      } catch (error) {
        return error as ApiError;
      }
      return undefined;
    })();

    // Assess
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused!.statusCode).toBe(422);
    expect(refused!.code).toBe('AB_TEST_WITH_SPREAD');
    expect(refused!.message).toContain('abTest and spreadOverMinutes');
    expect(() => checkAbTest({ abTest: test2, spreadOverMinutes: null })).not.toThrow();
    expect(presentAbTest({ abTest: test2, sentAt: null })!.phase).toBeNull();
    expect(presentAbTest({ abTest: test2, sentAt: '2026-11-23T09:00:00.000Z' })).toEqual({ ...test2, phase: 'SAMPLE', waitUntil: null, winner: null, pickedBy: null, pickedAt: null });
  });
});
