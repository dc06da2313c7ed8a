import { ReportedTexts } from '../../../../../../../functions/dashboard/app/src/components/reported-texts';

describe('the texts an editor reported that its page has not rendered back', () => {
  it('takes a value the page renders a keystroke behind for the editor\'s own, not a change from outside', () => {
    // Prepare: "a", then "ab" typed; the page renders "a" only now.
    const reported = new ReportedTexts();
    reported.report('a');
    reported.report('ab');

    // Act
    const late = reported.isFromOutside('a', 'ab');
    const caughtUp = reported.isFromOutside('ab', 'ab');

    // Assess
    expect(late).toBe(false);
    expect(caughtUp).toBe(false);
  });

  it('takes a value the editor never reported for a change from outside, and so an old text once the page has caught up', () => {
    // Prepare
    const reported = new ReportedTexts();
    reported.report('a');
    reported.report('ab');
    reported.isFromOutside('ab', 'ab');

    // Act
    const loaded = reported.isFromOutside('A saved template', 'ab');
    const resetToOld = reported.isFromOutside('a', 'ab');

    // Assess
    expect(loaded).toBe(true);
    expect(resetToOld).toBe(true);
  });

  it('forgets the texts before one rendered late, so an older one after it counts as from outside', () => {
    // Prepare
    const reported = new ReportedTexts();
    for (const text of ['a', 'ab', 'abc']) reported.report(text);

    // Act
    const late = reported.isFromOutside('ab', 'abc');
    const older = reported.isFromOutside('a', 'abc');

    // Assess
    expect(late).toBe(false);
    expect(older).toBe(true);
  });
});
