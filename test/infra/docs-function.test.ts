import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { MailwrightFunction } from '../../infra/constructs/mailwright-function';
import { SCALAR_BUNDLE } from '../../shared/contract/reference-page';

/** Lambda's cap on a synchronous response, the whole JSON result included. */
const LAMBDA_RESPONSE_CAP_BYTES = 6 * 1024 * 1024;

/**
 * The docs function as Lambda gets it: bundled by esbuild with the Scalar bundle copied beside the
 * code; the bundled handler, run from that folder, serves /docs/scalar.js under the response cap.
 */
describe('the docs function bundle', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'mailwright-docs-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('carries the reference renderer, serves it within the 6 MB response cap, and builds the document', async () => {
    // Prepare
    const app = new App({ outdir });
    const stack = new Stack(app, 'DocsBundle');
    new MailwrightFunction(stack, 'Docs', { group: 'docs', bundledFiles: [SCALAR_BUNDLE] });

    // Act
    app.synth();
    const assetDir = readdirSync(outdir).map((name) => path.join(outdir, name)).find((dir) => existsSync(path.join(dir, 'index.mjs')))!;
    process.env.TABLE_NAME ??= 'unused';
    const { handler } = await import(pathToFileURL(path.join(assetDir, 'index.mjs')).href);
    // A fresh event per call: the handler's middlewares change the one they get.
    const event = (path: string) => ({ httpMethod: 'GET', resource: path, path, headers: {}, queryStringParameters: null, pathParameters: null, body: null, isBase64Encoded: false, requestContext: { requestId: 'test' } });
    const context = { awsRequestId: 'test', getRemainingTimeInMillis: () => 10_000 };
    const result = await handler(event('/docs/scalar.js'), context);
    const document = await handler(event('/openapi.json'), context);

    // Assess
    expect(existsSync(path.join(assetDir, 'node_modules/@scalar/api-reference/dist/browser/standalone.js'))).toBe(true);
    expect(result.statusCode).toBe(200);
    expect(result.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(result.body).toContain('createApiReference');
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(LAMBDA_RESPONSE_CAP_BYTES);
    // The document builds in the function with no configuration but its table name.
    expect(document.statusCode).toBe(200);
    expect(JSON.parse(document.body).openapi).toBe('3.1.0');
  }, 240_000);
});
