import { readFileSync } from 'node:fs';
import { ConfigError } from '../../../../shared/config/env';
import { estimateCost, listPrices, pricesFrom } from '../../../../shared/campaigns/cost';

/** The figure after `label` in infra/README.md's "Cost model", in dollars. */
function readmeFigure(pattern: RegExp): number {
  const readme = readFileSync('infra/README.md', 'utf8');
  const match = pattern.exec(readme);
  if (!match) throw new Error(`infra/README.md has no figure for ${pattern}`);
  return Number(match[1]!.replace(/,/g, ''));
}

describe('the per-email cost model', () => {
  it('gives the README\'s figure for 1 million transactional emails', () => {
    // Prepare
    const readmeTotal = readmeFigure(/\*\*1 million transactional emails\*\*:[^—]*— \*\*≈ \$([\d,.]+)\*\*/);

    // Act
    const cost = estimateCost(1_000_000, 'transactional', listPrices);

    // Assess
    expect(cost.ses).toBe(100);
    expect(Math.abs(cost.total - readmeTotal)).toBeLessThan(0.5);
    expect(cost.total).toBeCloseTo(cost.ses + cost.aws, 6);
  });

  it('gives the README\'s figure for a 100,000-recipient campaign', () => {
    // Prepare
    const readmeTotal = readmeFigure(/\*\*A 100,000-recipient campaign\*\*:[\s\S]*?\*\*≈ \$([\d,.]+)\*\*/);

    // Act
    const cost = estimateCost(100_000, 'campaign', listPrices);

    // Assess
    expect(cost.ses).toBe(10);
    expect(Math.abs(cost.total - readmeTotal)).toBeLessThan(0.02);
    expect(cost.currency).toBe('USD');
  });

  it('scales with the recipients and costs nothing for none', () => {
    // Act
    const none = estimateCost(0, 'campaign', listPrices);
    const twenty = estimateCost(20, 'campaign', listPrices);

    // Assess
    expect(none).toEqual({ ses: 0, aws: 0, total: 0, currency: 'USD' });
    expect(twenty.ses).toBe(0.002);
    expect(twenty.aws).toBeGreaterThan(0);
    expect(twenty.aws).toBeLessThan(twenty.ses);
  });

  it('uses the deployment\'s prices', () => {
    // Prepare
    const prices = pricesFrom((setting) => ({ PRICE_SES_PER_1000: '0.2', PRICE_LAMBDA_GB_SECOND: '0' })[setting.env], 'env');

    // Act
    const cost = estimateCost(1000, 'campaign', prices);

    // Assess
    expect(prices.sesPer1000).toBe(0.2);
    expect(prices.dynamoWritePerMillion).toBe(listPrices.dynamoWritePerMillion);
    expect(cost.ses).toBe(0.2);
  });

  it('refuses a price that is not a number from 0, naming the setting', () => {
    // Act
    const read = () => pricesFrom((setting) => (setting.context === 'priceSqsPerMillion' ? '-1' : undefined), 'context');

    // Assess
    expect(read).toThrow(ConfigError);
    expect(read).toThrow('Context value priceSqsPerMillion must be a price in USD from 0, got "-1"');
  });
});
