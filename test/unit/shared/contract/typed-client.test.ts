import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { buildOpenApiDocument } from '../../../../shared/contract/document';

/** What `npm run client` produces (openapi-typescript), type-checked with the README's usage. */
describe('the typed client', () => {
  // Inside the repository, so `openapi-fetch` resolves from node_modules.
  mkdirSync('node_modules/.cache', { recursive: true });
  const dir = mkdtempSync(path.resolve('node_modules/.cache/typed-client-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const typeCheck = (file: string, source: string) => {
    writeFileSync(path.join(dir, file), source);
    const program = ts.createProgram([path.join(dir, file)], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  };

  it('types paths, parameters, bodies and responses, and rejects a wrong call', async () => {
    // Prepare
    writeFileSync(path.join(dir, 'schema.d.ts'), astToString(await openapiTS(buildOpenApiDocument() as never)));

    // Act
    const usage = typeCheck(
      'usage.ts',
      `import createClient from 'openapi-fetch';
import type { paths } from './schema';
const mailwright = createClient<paths>({ baseUrl: 'http://localhost:3000', headers: { Authorization: 'Bearer sk_…' } });
export async function example(id: string) {
  const { data } = await mailwright.GET('/contacts/{id}', { params: { path: { id } } });
  const email: string | undefined = data?.data.email;
  await mailwright.POST('/v1/send', { body: { to: 'ada@example.com', subject: 'Hi', body: '# Hello', type: 'markdown', from: 'hello@example.com' } });
  return email;
}
`,
    );
    const wrong = typeCheck(
      'wrong.ts',
      `import createClient from 'openapi-fetch';
import type { paths } from './schema';
const mailwright = createClient<paths>({ baseUrl: 'http://localhost:3000' });
export const wrong = mailwright.POST('/v1/send', { body: { to: 'ada@example.com', type: 'rtf' } });
`,
    );

    // Assess
    expect(usage).toEqual([]);
    expect(wrong.join('\n')).toContain('"rtf"');
  });
});
