import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { MailwrightFunction } from '../../infra/constructs/mailwright-function';
import { SCALAR_BUNDLE } from '../../shared/http/openapi/reference-page';

/** Lambda's cap on a synchronous response, the whole JSON result included. */
const LAMBDA_RESPONSE_CAP_BYTES = 6 * 1024 * 1024;

/**
 * The docs function as Lambda gets it: bundled by esbuild with the Scalar bundle copied beside the
 * code; the bundled handler, run from that folder, serves /docs/scalar.js under the response cap.
 */
describe('the docs function bundle', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'mailwright-docs-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('carries the reference renderer and serves it from the bundle within the 6 MB response cap', async () => {
    // Prepare
    const app = new App({ outdir });
    const stack = new Stack(app, 'DocsBundle');
    new MailwrightFunction(stack, 'Docs', { group: 'docs', bundledFiles: [SCALAR_BUNDLE] });

    // Act
    app.synth();
    const assetDir = readdirSync(outdir).map((name) => path.join(outdir, name)).find((dir) => existsSync(path.join(dir, 'index.mjs')))!;
    process.env.TABLE_NAME ??= 'unused';
    const { handler } = await import(pathToFileURL(path.join(assetDir, 'index.mjs')).href);
    const event = { httpMethod: 'GET', resource: '/docs/scalar.js', path: '/docs/scalar.js', headers: {}, queryStringParameters: null, pathParameters: null, body: null, isBase64Encoded: false, requestContext: { requestId: 'test' } };
    const result = await handler(event, { awsRequestId: 'test', getRemainingTimeInMillis: () => 10_000 });

    // Assess
    expect(existsSync(path.join(assetDir, 'node_modules/@scalar/api-reference/dist/browser/standalone.js'))).toBe(true);
    expect(result.statusCode).toBe(200);
    expect(result.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(result.body).toContain('createApiReference');
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(LAMBDA_RESPONSE_CAP_BYTES);
  }, 240_000);
});
