import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { MailwrightFunction } from '../../infra/constructs/mailwright-function';
import { INITIAL_JS_BUDGET_BYTES, initialJsReport } from '../../functions/dashboard/app/scripts/report-size';

/** Lambda's cap on a synchronous response, the whole JSON result included. */
const LAMBDA_RESPONSE_CAP_BYTES = 6 * 1024 * 1024;
const BUILT_DIST = path.resolve('functions/dashboard/dist');

/**
 * The dashboard function as Lambda gets it: bundled by esbuild with the built app (npm run
 * build:dashboard, which npm test runs first) copied beside the code; the bundled handler, run
 * from that folder behind a stage, serves the app under the stage's path.
 */
describe('the dashboard function bundle', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'mailwright-dashboard-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('carries the built app and serves it from the bundle: page, hashed files, client routes, 404s', async () => {
    // Prepare
    const app = new App({ outdir });
    const stack = new Stack(app, 'DashboardBundle');
    new MailwrightFunction(stack, 'Dashboard', { group: 'dashboard', bundledFolders: ['dist'] }).bindPublicApiUrl('https://abc.execute-api.eu-west-1.amazonaws.com/api');

    // Act
    app.synth();
    const assetDir = readdirSync(outdir).map((name) => path.join(outdir, name)).find((dir) => existsSync(path.join(dir, 'index.mjs')))!;
    process.env.TABLE_NAME ??= 'unused';
    process.env.PUBLIC_API_URL = 'https://abc.execute-api.eu-west-1.amazonaws.com/api';
    const { handler } = await import(pathToFileURL(path.join(assetDir, 'index.mjs')).href);
    // A fresh event per call: the handler's middlewares change the one they get.
    const event = (resource: string, proxy?: string) => ({
      httpMethod: 'GET', resource, path: `/dashboard/${proxy ?? ''}`, headers: {}, queryStringParameters: null, pathParameters: proxy === undefined ? null : { proxy },
      body: null, isBase64Encoded: false, requestContext: { requestId: 'test' },
    });
    const context = { awsRequestId: 'test', getRemainingTimeInMillis: () => 10_000 };
    const page = await handler(event('/dashboard'), context);
    const deepLink = await handler(event('/dashboard/{proxy+}', 'contacts/01K000000000000000000000AB'), context);
    const script = page.body.match(/src="\/api\/dashboard\/([^"]+\.js)"/)?.[1];
    const asset = await handler(event('/dashboard/{proxy+}', script), context);
    const missing = await handler(event('/dashboard/{proxy+}', 'index-00000000.js'), context);

    // Assess
    expect(readdirSync(path.join(assetDir, 'dist')).sort()).toEqual(readdirSync(BUILT_DIST).sort());
    expect(page.statusCode).toBe(200);
    expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(page.headers['Cache-Control']).toBe('no-store');
    expect(page.headers['Content-Security-Policy']).toContain("script-src 'self'");
    expect(page.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(deepLink.statusCode).toBe(200);
    expect(deepLink.body).toBe(page.body);
    expect(script).toBeDefined();
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['Cache-Control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toBe(readFileSync(path.join(BUILT_DIST, script!), 'utf8'));
    expect(Buffer.byteLength(JSON.stringify(asset))).toBeLessThan(LAMBDA_RESPONSE_CAP_BYTES);
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body).error.code).toBe('NOT_FOUND');
  }, 240_000);

  it('keeps the initial JavaScript of the built app within its budget', () => {
    // Act
    const report = initialJsReport(BUILT_DIST);

    // Assess
    expect(report.files.length).toBeGreaterThan(0);
    expect(report.totalGzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });
});
