/** SES puts an account under review at these rates (AWS's documented thresholds), as fractions. */
export const SES_BOUNCE_REVIEW_RATE = 0.05;
export const SES_COMPLAINT_REVIEW_RATE = 0.001;
/** At these SES may pause the account's sending. */
export const SES_BOUNCE_PAUSE_RATE = 0.1;
export const SES_COMPLAINT_PAUSE_RATE = 0.005;

/** How a bounce or complaint rate (a fraction) stands against SES's thresholds. */
export function rateLevel(rate: number, kind: 'bounce' | 'complaint'): 'ok' | 'warn' | 'danger' {
  const [review, pause] = kind === 'bounce' ? [SES_BOUNCE_REVIEW_RATE, SES_BOUNCE_PAUSE_RATE] : [SES_COMPLAINT_REVIEW_RATE, SES_COMPLAINT_PAUSE_RATE];
  return rate >= pause ? 'danger' : rate >= review ? 'warn' : 'ok';
}
