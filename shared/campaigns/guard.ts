import { ConfigError } from '../config/env';
import { variables, type Variable } from '../config/variables';

/**
 * The deliverability guard's rule (/docs "Campaigns"): a SENDING campaign is paused when its
 * bounce rate is above `bounceRate` after at least `bounceMinSends` sends, or its complaint rate
 * above `complaintRate` after at least `complaintMinSends` — SES reviews an account from 5 %
 * bounces and 0.1 % complaints. Rates are of the campaign's sends (`sentCount`), counted since it
 * was last resumed. Pure: the thresholds come from CDK context values (infra) or the environment
 * variables they become (the ses-events function).
 */
export interface GuardThresholds {
  /** Fraction of sends, above 0 and below 1 (0.05 = 5 %). */
  bounceRate: number;
  bounceMinSends: number;
  complaintRate: number;
  complaintMinSends: number;
}

/** The counters the rule reads, from the campaign's stats item. */
export interface GuardCounters {
  sent: number;
  bounced: number;
  complained: number;
}

export const defaultGuardThresholds: GuardThresholds = { bounceRate: 0.05, bounceMinSends: 200, complaintRate: 0.001, complaintMinSends: 1000 };

/** Each threshold's CDK context value and the environment variable it is passed as. */
export const guardThresholdSettings: Record<keyof GuardThresholds, { context: string; env: Variable['name'] }> = {
  bounceRate: { context: 'pauseBounceRate', env: variables.pauseBounceRate.name },
  bounceMinSends: { context: 'pauseBounceMinSends', env: variables.pauseBounceMinSends.name },
  complaintRate: { context: 'pauseComplaintRate', env: variables.pauseComplaintRate.name },
  complaintMinSends: { context: 'pauseComplaintMinSends', env: variables.pauseComplaintMinSends.name },
};

const isRate = (name: keyof GuardThresholds) => name === 'bounceRate' || name === 'complaintRate';

/**
 * The thresholds from `lookup` (a context value or an environment variable; unset: the default),
 * each checked: rates above 0 and below 1, minimums whole numbers from 1. Throws ConfigError
 * naming the setting.
 */
export function guardThresholdsFrom(lookup: (setting: { context: string; env: string }) => unknown, source: 'context' | 'env'): GuardThresholds {
  const entries = (Object.keys(guardThresholdSettings) as (keyof GuardThresholds)[]).map((name) => {
    const setting = guardThresholdSettings[name];
    const raw = lookup(setting);
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return [name, defaultGuardThresholds[name]] as const;
    const value = Number(raw);
    const valid = isRate(name) ? value > 0 && value < 1 : Number.isInteger(value) && value >= 1;
    if (!valid) {
      const label = source === 'context' ? `Context value ${setting.context}` : `Environment variable ${setting.env}`;
      throw new ConfigError(`${label} must be ${isRate(name) ? 'a fraction above 0 and below 1 (0.05 = 5 %)' : 'a whole number from 1'}, got "${String(raw)}"`);
    }
    return [name, value] as const;
  });
  return Object.fromEntries(entries) as unknown as GuardThresholds;
}

/** The environment variables that carry `thresholds` to a function. */
export const guardThresholdEnvironment = (thresholds: GuardThresholds): Partial<Record<Variable['name'], string>> =>
  Object.fromEntries((Object.keys(guardThresholdSettings) as (keyof GuardThresholds)[]).map((name) => [guardThresholdSettings[name].env, String(thresholds[name])]));

const NO_SENDS: GuardCounters = { sent: 0, bounced: 0, complained: 0 };
const percent = (fraction: number) => String(Number((fraction * 100).toPrecision(10)));

/**
 * Why the campaign must pause, or undefined: a rate strictly above its threshold (exactly at it
 * does not pause) once the sends since `baseline` reach the threshold's minimum.
 */
export function pauseReasonFor(counters: GuardCounters, baseline: GuardCounters | undefined, thresholds: GuardThresholds): string | undefined {
  const since = baseline ?? NO_SENDS;
  const sent = counters.sent - since.sent;
  const bounced = counters.bounced - since.bounced;
  const complained = counters.complained - since.complained;
  if (sent >= thresholds.bounceMinSends && bounced / sent > thresholds.bounceRate) {
    return `Bounce rate ${((100 * bounced) / sent).toFixed(2)} % over ${sent} sends passed the ${percent(thresholds.bounceRate)} % threshold`;
  }
  if (sent >= thresholds.complaintMinSends && complained / sent > thresholds.complaintRate) {
    return `Complaint rate ${((100 * complained) / sent).toFixed(2)} % over ${sent} sends passed the ${percent(thresholds.complaintRate)} % threshold`;
  }
  return undefined;
}
