import { readdirSync, readFileSync } from 'node:fs';
import { sesTagNames } from '../../../../shared/delivery/ses-tags';

describe('sesTagNames', () => {
  it('keeps the names mail already sent carries, which its SES events hand back', () => {
    expect(sesTagNames).toEqual({ project: 'mw_project', email: 'mw_email', source: 'mw_source' });
  });

  it('are the tags of the recorded SES events the tests replay (test/fixtures/ses-events)', () => {
    // Prepare
    const directory = 'test/fixtures/ses-events';
    const fixtures = readdirSync(directory).filter((name) => name.endsWith('.json'));

    // Act
    const tagNames = fixtures.map((name) => Object.keys(JSON.parse(readFileSync(`${directory}/${name}`, 'utf8')).detail.mail.tags).filter((tag) => !tag.startsWith('ses:')));

    // Assess
    expect(fixtures.length).toBeGreaterThan(0);
    for (const names of tagNames) expect(names.sort()).toEqual(Object.values(sesTagNames).sort());
  });
});
