import { costSentence, formatUsd } from '../../../../../../../../functions/dashboard/app/src/features/campaigns/estimated-cost';

describe('the estimated cost the campaign page shows', () => {
  it('shows cents from a cent up, four decimals below, and never a rounded zero for a cost that is not', () => {
    // Act
    const shown = [12.3456, 0.01, 0.0024, 0.0001, 0.0000438, 0].map(formatUsd);

    // Assess
    expect(shown).toEqual(['$12.35', '$0.01', '$0.0024', '$0.0001', '< $0.0001', '$0.00']);
  });

  it('says the total, SES and the rest of AWS', () => {
    // Act
    const sentence = costSentence({ ses: 0.0003, aws: 0.0000438, total: 0.0003438, currency: 'USD' });

    // Assess
    expect(sentence).toBe('$0.0003 (SES $0.0003, other AWS < $0.0001)');
  });
});
