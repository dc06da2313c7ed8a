import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DASHBOARD_CSP, dashboardBasePath, loadStaticFiles } from '../../../../shared/dashboard/static-files';
import { ApiError } from '../../../../shared/http/errors';

const INDEX = '<!doctype html><link rel="icon" href="./favicon.svg"><script type="module" crossorigin src="./index-BLC8VNh4.js"></script><link rel="stylesheet" href="./index-CWKsISt7.css"><a href="https://example.com/./x">x</a>';

/** A build folder as Vite leaves it. */
function distWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mailwright-dist-'));
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), body);
  }
  return dir;
}

describe('the dashboard static files', () => {
  let dir: string;
  beforeEach(() => {
    dir = distWith({ 'index.html': INDEX, 'index-BLC8VNh4.js': 'console.log(1)', 'index-CWKsISt7.css': 'body{}', 'favicon.svg': '<svg/>' });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the page with the strict policy, never cached, its relative URLs made absolute under the base path', () => {
    // Prepare
    const files = loadStaticFiles(dir, '/api/dashboard/');

    // Act
    const page = files.serve('');

    // Assess
    expect(page.body).toBe(
      '<!doctype html><link rel="icon" href="/api/dashboard/favicon.svg"><script type="module" crossorigin src="/api/dashboard/index-BLC8VNh4.js"></script><link rel="stylesheet" href="/api/dashboard/index-CWKsISt7.css"><a href="https://example.com/./x">x</a>',
    );
    expect(page.headers).toEqual({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': DASHBOARD_CSP,
      'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), clipboard-read=(), clipboard-write=(self)',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  });

  it('has a policy without inline script or style, unframeable, without a base element', () => {
    // Assess
    expect(DASHBOARD_CSP.split('; ')).toEqual(expect.arrayContaining(["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"]));
    expect(DASHBOARD_CSP).not.toContain('unsafe');
  });

  it('answers the page for every app path without a file extension (client routing)', () => {
    // Prepare
    const files = loadStaticFiles(dir, '/dashboard/');

    // Act
    const pages = ['contacts', 'contacts/01K000000000000000000000AB', 'settings/', 'index.html'].map((name) => files.serve(name));

    // Assess
    for (const page of pages) {
      expect(page.headers!['Content-Type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('src="/dashboard/index-BLC8VNh4.js"');
    }
  });

  it('caches hashed files as immutable and other files briefly, with their text types', () => {
    // Prepare
    const files = loadStaticFiles(dir, '/dashboard/');

    // Act
    const script = files.serve('index-BLC8VNh4.js');
    const style = files.serve('/index-CWKsISt7.css');
    const icon = files.serve('favicon.svg');

    // Assess
    expect(script).toEqual({ body: 'console.log(1)', headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' } });
    expect(style.headers).toEqual({ 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' });
    expect(icon.headers).toEqual({ 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' });
  });

  it('answers 404 for a file that is not in the build, including paths that climb out of it', () => {
    // Prepare
    const files = loadStaticFiles(dir, '/dashboard/');

    // Act
    const missing = ['index-XXXXXXXX.js', '../package.json', 'contacts/../../handler.ts'].map((name) => {
      try {
        files.serve(name);
        return null;
      } catch (error) {
        return error;
      }
    });

    // Assess
    for (const error of missing) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).statusCode).toBe(404);
    }
  });

  it('refuses a build that holds a binary file type or has no index.html', () => {
    // Prepare
    const binary = distWith({ 'index.html': INDEX, 'logo-ABCDEFGH.png': 'png' });
    const unbuilt = distWith({ 'index-BLC8VNh4.js': '' });

    // Act & Assess
    expect(() => loadStaticFiles(binary, '/dashboard/')).toThrow('logo-ABCDEFGH.png, which is not a text type');
    expect(() => loadStaticFiles(unbuilt, '/dashboard/')).toThrow('npm run build:dashboard');
    rmSync(binary, { recursive: true, force: true });
    rmSync(unbuilt, { recursive: true, force: true });
  });

  it('puts the app under the path of the public API URL', () => {
    // Assess
    expect(dashboardBasePath('http://localhost:3000')).toBe('/dashboard/');
    expect(dashboardBasePath('https://abc.execute-api.eu-west-1.amazonaws.com/api/')).toBe('/api/dashboard/');
    expect(dashboardBasePath('https://mail.example.com/v2')).toBe('/v2/dashboard/');
  });
});
