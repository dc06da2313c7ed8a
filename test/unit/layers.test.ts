import { ESLint } from 'eslint';

/**
 * The layers of README's map are kept by `npm run lint` (.eslint.config.js). A planted import that
 * crosses a layer must be refused, and the same file without it accepted, or the rule keeps nothing.
 */
const eslint = new ESLint({ overrideConfigFile: '.eslint.config.js' });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'import/no-restricted-paths').map((message) => message.message);
}

describe('import layers', () => {
  it.each([
    ['a function importing infra/', 'functions/contacts/planted.ts', "import { MailwrightStack } from '../../infra/stack';\nexport const planted = MailwrightStack;\n"],
    ['shared/ importing a function', 'shared/contacts/planted.ts', "import { handler } from '../../functions/contacts/handler';\nexport const planted = handler;\n"],
    ['a low shared floor importing a domain', 'shared/db/planted.ts', "import { contactKeys } from '../contacts/keys';\nexport const planted = contactKeys;\n"],
    [
      'a dashboard feature importing another feature',
      'functions/dashboard/app/src/features/domains/planted.tsx',
      "import * as contacts from '../contacts/api';\nexport const planted = contacts;\n",
    ],
  ])('refuses %s', async (_name, filePath, code) => {
    // Act
    const errors = await layerErrors(filePath, code);

    // Assess
    expect(errors).toHaveLength(1);
  });

  it.each([
    ['a function importing shared/', 'functions/contacts/planted.ts', "import { requiredEnv } from '../../shared/config/env';\nexport const planted = requiredEnv;\n"],
    ['a domain importing a low floor', 'shared/contacts/planted.ts', "import { requiredEnv } from '../config/env';\nexport const planted = requiredEnv;\n"],
    ['a dashboard feature importing lib/', 'functions/dashboard/app/src/features/domains/planted.tsx', "import * as format from '../../lib/format';\nexport const planted = format;\n"],
  ])('accepts %s', async (_name, filePath, code) => {
    // Act
    const errors = await layerErrors(filePath, code);

    // Assess
    expect(errors).toEqual([]);
  });
});
