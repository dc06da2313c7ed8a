import * as v from 'valibot';
import type { EmailRecord } from '../emails/emails';
import { ApiError } from '../http/errors';
import { assertTemplateParses } from '../templates/render';
import { subjectSchema } from '../templates/schemas';

/**
 * The A/B subject test's fields and rules, without I/O (the sending of it: ab-test.ts): its
 * request schema, its API view, which audience position is in the sample with which variant, and
 * the per-variant figures and winner.
 */
export const abTestLimits = { minVariants: 2, maxVariants: 4, minSamplePercent: 5, maxSamplePercent: 50, minWaitMinutes: 1, maxWaitMinutes: 10_080 } as const;

export const abMetrics = ['opens', 'clicks'] as const;
export const abPhases = ['SAMPLE', 'WAITING', 'WINNER'] as const;
export type AbPhase = (typeof abPhases)[number];

const integerIn = (field: string, min: number, max: number) =>
  v.pipe(v.number(`${field} must be a number`), v.integer(`${field} must be a whole number`), v.minValue(min, `${field} must be at least ${min}`), v.maxValue(max, `${field} must be at most ${max}`));

/** `abTest` on POST and PATCH /campaigns. */
export const abTestSchema = v.object({
  variants: v.pipe(
    v.array(v.object({ subject: subjectSchema }), 'abTest.variants must be an array of { subject }'),
    v.minLength(abTestLimits.minVariants, `abTest.variants must have at least ${abTestLimits.minVariants} subjects`),
    v.maxLength(abTestLimits.maxVariants, `abTest.variants must have at most ${abTestLimits.maxVariants} subjects`),
  ),
  samplePercent: integerIn('abTest.samplePercent', abTestLimits.minSamplePercent, abTestLimits.maxSamplePercent),
  metric: v.picklist(abMetrics, `abTest.metric must be one of ${abMetrics.join(', ')}`),
  waitMinutes: integerIn('abTest.waitMinutes', abTestLimits.minWaitMinutes, abTestLimits.maxWaitMinutes),
});
export type AbTestInput = v.InferOutput<typeof abTestSchema>;

/** POST /campaigns/{id}/ab-winner. */
export const abWinnerSchema = v.object({ variant: integerIn('variant', 0, abTestLimits.maxVariants - 1) });

/** The stored test: its settings and, once sending, where it is. */
export interface StoredAbTest extends AbTestInput {
  /** Absent while the sample is being queued (SAMPLE). */
  phase?: AbPhase;
  /** When the winner is picked by the schedule (set when WAITING starts). */
  waitUntil?: string;
  winner?: number;
  /** `schedule`: the highest rate; `hand`: POST /campaigns/{id}/ab-winner. */
  pickedBy?: 'schedule' | 'hand';
  pickedAt?: string;
}

/** The API's view of a campaign's test. */
export interface AbTest extends AbTestInput {
  /** null until the campaign starts sending. */
  phase: AbPhase | null;
  waitUntil: string | null;
  winner: number | null;
  pickedBy: 'schedule' | 'hand' | null;
  pickedAt: string | null;
}

export function presentAbTest(campaign: { abTest?: StoredAbTest | null; sentAt?: string | null }): AbTest | null {
  const test = campaign.abTest;
  if (!test) return null;
  return {
    variants: test.variants.map(({ subject }) => ({ subject })),
    samplePercent: test.samplePercent,
    metric: test.metric,
    waitMinutes: test.waitMinutes,
    phase: test.phase ?? (campaign.sentAt ? 'SAMPLE' : null),
    waitUntil: test.waitUntil ?? null,
    winner: test.winner ?? null,
    pickedBy: test.pickedBy ?? null,
    pickedAt: test.pickedAt ?? null,
  };
}

/**
 * What create and update check: each variant's subject parses. Combinations that are refused
 * (422 naming both fields): a spread-out send (`spreadOverMinutes`), whose pacing of the whole
 * audience the held-back rest would break.
 */
export function checkAbTest(campaign: { abTest?: AbTestInput | null } & Record<string, unknown>): void {
  const test = campaign.abTest;
  if (!test) return;
  test.variants.forEach(({ subject }) => assertTemplateParses({ subject }));
  if (campaign.spreadOverMinutes !== undefined && campaign.spreadOverMinutes !== null) {
    throw new ApiError(422, 'AB_TEST_WITH_SPREAD', 'abTest and spreadOverMinutes cannot be combined: an A/B test sends its sample first and the rest after the wait', {
      suggestion: 'Remove abTest or spreadOverMinutes.',
    });
  }
}

/** For the send of a campaign at each recipient's local time: refused with an A/B test (422 naming both). */
export function assertNoAbTestWith(campaign: { abTest?: StoredAbTest | null }, field: string): void {
  if (campaign.abTest) {
    throw new ApiError(422, 'AB_TEST_WITH_LOCAL_TIME', `abTest and ${field} cannot be combined: an A/B test sends its sample first and the rest after the wait`, {
      suggestion: `Remove abTest, or send without ${field}.`,
    });
  }
}

/**
 * Which variant the recipient at `position` of the frozen audience (0-based, in the audience's
 * order) gets, or undefined for the rest: exactly floor(N × samplePercent / 100) of N recipients
 * are in the sample, spread evenly over the audience, and the sample's members take the variants
 * in turn (their counts differ by at most one). The same position gives the same answer on a redo.
 */
export function sampleVariant(position: number, test: Pick<AbTestInput, 'samplePercent' | 'variants'>): number | undefined {
  const before = Math.floor((position * test.samplePercent) / 100);
  const through = Math.floor(((position + 1) * test.samplePercent) / 100);
  return through > before ? before % test.variants.length : undefined;
}

/** The per-variant counters on the campaign's stats item: `ab<n>_<sent|delivered|opened|clicked>` (opened and clicked: unique contacts). */
export const variantCounter = (variant: number, metric: 'sent' | 'delivered' | 'opened' | 'clicked') => `ab${variant}_${metric}`;

/** The adds of a contact's first open (click) of a sample email, beside the campaign's own unique count. */
export const variantEngagementAdds = (email: Pick<EmailRecord, 'abVariant'>, kind: 'opened' | 'clicked'): Record<string, number> =>
  email.abVariant === undefined ? {} : { [variantCounter(email.abVariant, kind)]: 1 };

export interface VariantStats {
  variant: number;
  subject: string;
  sent: number;
  delivered: number;
  /** Unique contacts. */
  opened: number;
  /** Unique contacts. */
  clicked: number;
  openRate: number;
  clickRate: number;
  winner: boolean;
}

/** Percent of `of`, two decimals; 0 when nothing was sent. */
const rate = (count: number, of: number) => (of > 0 ? Math.round((count / of) * 10_000) / 100 : 0);

/** The sample's figures per variant, from the campaign's stats item; [] without a test. */
export function variantStats(campaign: { abTest?: StoredAbTest | null }, statsItem: Record<string, unknown> | undefined): VariantStats[] {
  const test = campaign.abTest;
  if (!test) return [];
  const read = (name: string) => (statsItem?.[name] as number | undefined) ?? 0;
  return test.variants.map(({ subject }, variant) => {
    const sent = read(variantCounter(variant, 'sent'));
    const opened = read(variantCounter(variant, 'opened'));
    const clicked = read(variantCounter(variant, 'clicked'));
    return { variant, subject, sent, delivered: read(variantCounter(variant, 'delivered')), opened, clicked, openRate: rate(opened, sent), clickRate: rate(clicked, sent), winner: test.winner === variant };
  });
}

/** The variant with the highest unique open (click) rate; ties: the first. */
export function bestVariant(stats: VariantStats[], metric: AbTestInput['metric']): number {
  let best = 0;
  for (const entry of stats) {
    const value = metric === 'opens' ? entry.openRate : entry.clickRate;
    const top = metric === 'opens' ? stats[best]!.openRate : stats[best]!.clickRate;
    if (value > top) best = entry.variant;
  }
  return best;
}


/**
 * A fan-out page of the frozen audience, split: who is sent now (with their variant, in a test's
 * sample) and who is held for the winner. `offset`: the recipients of the pages before. Without a
 * test, everyone is sent now.
 */
export function splitPage<R>(test: Pick<AbTestInput, 'samplePercent' | 'variants'> | null | undefined, offset: number, recipients: R[]): { send: { recipient: R; variant?: number }[]; hold: R[] } {
  if (!test) return { send: recipients.map((recipient) => ({ recipient })), hold: [] };
  const send: { recipient: R; variant?: number }[] = [];
  const hold: R[] = [];
  recipients.forEach((recipient, index) => {
    const variant = sampleVariant(offset + index, test);
    if (variant === undefined) hold.push(recipient);
    else send.push({ recipient, variant });
  });
  return { send, hold };
}

/** The content a sample email of `variant` carries: the campaign's, with the variant's subject. */
export const variantContent = <C extends { subject: string }>(content: C, test: Pick<AbTestInput, 'variants'> | null | undefined, variant: number | undefined): C =>
  test && variant !== undefined ? { ...content, subject: test.variants[variant]!.subject } : content;
