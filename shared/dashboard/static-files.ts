import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { notFound } from '../http/errors';
import type { HttpResult } from '../http/handler';

/**
 * The dashboard's Content-Security-Policy: only its own scripts and styles (no inline script or
 * style element, no eval), API calls to its own origin, email previews only in sandboxed srcdoc
 * frames (which inherit this policy, so an email's own scripts and remote images stay blocked),
 * and never framed itself.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The copy buttons (DNS records, new keys) write to the clipboard; everything else stays off. */
const DASHBOARD_PERMISSIONS = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), clipboard-read=(), clipboard-write=(self)';

const TEXT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Vite's content-hashed names (`index-B3x_9aQ1.js`): a new build gives a new name, so they never change. */
const HASHED_NAME = /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=300';

interface StaticFile {
  body: string;
  contentType: string;
  cacheControl: string;
}

/**
 * The built app (functions/dashboard/dist), read once at cold start. Only text types are served
 * (the REST API has no binaryMediaTypes): the build makes nothing else, and `load` refuses any
 * other file so a binary one cannot slip in and be corrupted on the way out.
 *
 * `basePath` is where the app is served (`/dashboard/`, or `/api/dashboard/` behind the stage):
 * index.html's relative URLs are made absolute with it, so a deep link such as
 * /dashboard/contacts/01K… still finds ./index-….js.
 */
export function loadStaticFiles(distDir: string, basePath: string) {
  if (!existsSync(path.join(distDir, 'index.html'))) throw new Error(`The dashboard is not built: ${distDir}/index.html is missing (npm run build:dashboard)`);
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(distDir, { recursive: true, encoding: 'utf8' })) {
    const full = path.join(distDir, name);
    if (!statSync(full).isFile()) continue;
    const contentType = TEXT_TYPES[path.extname(name).toLowerCase()];
    if (!contentType) throw new Error(`The dashboard build holds ${name}, which is not a text type the function can serve`);
    const urlPath = name.split(path.sep).join('/');
    files.set(urlPath, { body: readFileSync(full, 'utf8'), contentType, cacheControl: HASHED_NAME.test(urlPath) ? IMMUTABLE : SHORT });
  }
  const index = files.get('index.html')!.body.replace(/(\s(?:src|href))="\.\//g, `$1="${basePath}`);

  const page = (): HttpResult => ({
    body: index,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      // A new deploy must reach every browser at once: the page names the current hashed files.
      'Cache-Control': 'no-store',
      'Content-Security-Policy': DASHBOARD_CSP,
      'Permissions-Policy': DASHBOARD_PERMISSIONS,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  });

  return {
    /**
     * `filePath` is the path under the base ('' for the base itself). A path with a file
     * extension names a file (404 when there is none); any other path is a page of the app.
     */
    serve(filePath: string): HttpResult {
      const name = filePath.replace(/^\/+/, '');
      if (name === '' || name === 'index.html' || !path.posix.extname(name)) return page();
      const file = files.get(name);
      if (!file) throw notFound('File');
      return { body: file.body, headers: { 'Content-Type': file.contentType, 'Cache-Control': file.cacheControl, 'X-Content-Type-Options': 'nosniff' } };
    },
  };
}

/** Where the app is served: the path of the API's public URL, then /dashboard/. */
export const dashboardBasePath = (publicApiUrl: string) => `${new URL(publicApiUrl).pathname.replace(/\/+$/, '')}/dashboard/`;
