import * as v from 'valibot';

export const verificationResponseSchema = v.pipe(
  v.strictObject({
    email: v.string(),
    valid: v.boolean(),
    isDisposable: v.boolean(),
    isAlias: v.pipe(v.boolean(), v.description('A role account such as info@ or support@')),
    isTypo: v.boolean(),
    isPlusAddressed: v.boolean(),
    domainExists: v.boolean(),
    hasMxRecords: v.boolean(),
    reasons: v.pipe(v.array(v.string()), v.description('Human-readable, including a suggested correction for a likely typo')),
  }),
  v.title('EmailVerification'),
);
