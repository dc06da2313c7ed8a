import { ConfigError } from '../config/env';
import { variables, type Variable } from '../config/variables';

/**
 * THE per-email cost model: what one email costs on AWS, from the calls it makes (counted by the
 * benchmarks, infra/README.md "Cost model") times the prices. The README's figures are this
 * model's (test/unit/shared/campaigns/cost.test.ts checks them); GET /campaigns/{id}/audience's
 * `estimatedCost` is it too. Prices are deploy settings (CDK context, e.g. `-c priceSesPer1000=0.12`,
 * passed to every function as the variables below); unset, the AWS list prices of us-east-1.
 */
export interface Prices {
  /** SES, per 1,000 emails. */
  sesPer1000: number;
  /** DynamoDB on demand, per million write request units. */
  dynamoWritePerMillion: number;
  /** DynamoDB on demand, per million read request units. */
  dynamoReadPerMillion: number;
  /** SQS standard, per million requests. */
  sqsPerMillion: number;
  /** Lambda (arm64), per million requests. */
  lambdaRequestsPerMillion: number;
  /** Lambda (arm64), per GB-second. */
  lambdaGbSecond: number;
  /** API Gateway REST API, per million requests (the first 333 million a month). */
  apiRequestsPerMillion: number;
}

export const listPrices: Prices = {
  sesPer1000: 0.1,
  dynamoWritePerMillion: 0.625,
  dynamoReadPerMillion: 0.125,
  sqsPerMillion: 0.4,
  lambdaRequestsPerMillion: 0.2,
  lambdaGbSecond: 0.0000133334,
  apiRequestsPerMillion: 3.5,
};

/** Each price's CDK context value and the environment variable it is passed as. */
export const priceSettings: Record<keyof Prices, { context: string; variable: Variable }> = {
  sesPer1000: { context: 'priceSesPer1000', variable: variables.priceSesPer1000 },
  dynamoWritePerMillion: { context: 'priceDynamoWritePerMillion', variable: variables.priceDynamoWritePerMillion },
  dynamoReadPerMillion: { context: 'priceDynamoReadPerMillion', variable: variables.priceDynamoReadPerMillion },
  sqsPerMillion: { context: 'priceSqsPerMillion', variable: variables.priceSqsPerMillion },
  lambdaRequestsPerMillion: { context: 'priceLambdaRequestsPerMillion', variable: variables.priceLambdaRequestsPerMillion },
  lambdaGbSecond: { context: 'priceLambdaGbSecond', variable: variables.priceLambdaGbSecond },
  apiRequestsPerMillion: { context: 'priceApiRequestsPerMillion', variable: variables.priceApiRequestsPerMillion },
};

/** What one email uses besides its SES send. */
export interface EmailUsage {
  dynamoWrites: number;
  dynamoReads: number;
  sqsRequests: number;
  lambdaRequests: number;
  lambdaGbSeconds: number;
  /** API Gateway requests: one per transactional send, none for campaign mail. */
  apiRequests: number;
}

/**
 * Per email, as infra/README.md "Cost model" shows them (measured by BENCH_SECTIONS=cost npm run
 * bench, 2026-11-27 01:25 UTC). Transactional: the API, the sender, two SES events and their share
 * of delivery-counters' batches at 1 million emails a month (18 WRU, 9 RRU, 3 SQS requests, 4.25
 * invocations, 0.048 GB-s, 1 API Gateway request). Campaign: the dispatch's share, the campaign
 * sender in batches of ten (billed while it sleeps for its slots at the default 14/s), the SES
 * events and delivery-counters in full batches (16.3 WRU, 9.2 RRU, 0.31 SQS requests, 2.13
 * invocations, 0.082 GB-s).
 */
export const usagePerEmail: Record<'transactional' | 'campaign', EmailUsage> = {
  transactional: { dynamoWrites: 18, dynamoReads: 9, sqsRequests: 3, lambdaRequests: 4.25, lambdaGbSeconds: 0.048, apiRequests: 1 },
  campaign: { dynamoWrites: 16.3, dynamoReads: 9.2, sqsRequests: 0.31, lambdaRequests: 2.13, lambdaGbSeconds: 0.082, apiRequests: 0 },
};

export interface CostEstimate {
  /** SES's sending charge. */
  ses: number;
  /** Everything else on AWS: DynamoDB, Lambda, SQS, API Gateway. */
  aws: number;
  total: number;
  currency: 'USD';
}

/** Dollars to six decimals (a 20-recipient campaign costs about a fifth of a cent). */
const dollars = (value: number) => Math.round(value * 1e6) / 1e6;

/** What `emails` emails of a kind cost at `prices`. */
export function estimateCost(emails: number, kind: keyof typeof usagePerEmail, prices: Prices): CostEstimate {
  const usage = usagePerEmail[kind];
  const ses = (emails * prices.sesPer1000) / 1000;
  const aws =
    (emails *
      (usage.dynamoWrites * prices.dynamoWritePerMillion +
        usage.dynamoReads * prices.dynamoReadPerMillion +
        usage.sqsRequests * prices.sqsPerMillion +
        usage.lambdaRequests * prices.lambdaRequestsPerMillion +
        usage.apiRequests * prices.apiRequestsPerMillion)) /
      1e6 +
    emails * usage.lambdaGbSeconds * prices.lambdaGbSecond;
  return { ses: dollars(ses), aws: dollars(aws), total: dollars(ses + aws), currency: 'USD' };
}

/**
 * The prices from `lookup` (a context value or an environment variable; unset: the list price),
 * each a number from 0. Throws ConfigError naming the setting.
 */
export function pricesFrom(lookup: (setting: { context: string; env: string }) => unknown, source: 'context' | 'env'): Prices {
  const entries = (Object.keys(priceSettings) as (keyof Prices)[]).map((name) => {
    const setting = { context: priceSettings[name].context, env: priceSettings[name].variable.name };
    const raw = lookup(setting);
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return [name, listPrices[name]] as const;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) {
      const label = source === 'context' ? `Context value ${setting.context}` : `Environment variable ${setting.env}`;
      throw new ConfigError(`${label} must be a price in USD from 0, got "${String(raw)}"`);
    }
    return [name, value] as const;
  });
  return Object.fromEntries(entries) as unknown as Prices;
}

let prices: Prices | undefined;

/** The deployment's prices, read from the environment once (a malformed one throws ConfigError). */
export const deployedPrices = (): Prices => (prices ??= pricesFrom((setting) => process.env[setting.env], 'env'));

/** What sending a campaign to `recipients` would cost. */
export const estimateCampaignCost = (recipients: number): CostEstimate => estimateCost(recipients, 'campaign', deployedPrices());
