import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * GET /docs: the API reference, rendered in the browser by Scalar's standalone bundle
 * (@scalar/api-reference) from GET /openapi.json, with "try it" against this API. Everything is
 * served by the API itself (no CDN, no web fonts, Scalar's AI agent and registry search off, so
 * the page never calls out): the page, and the bundle from
 * GET /docs/scalar.js, which stays under Lambda's 6 MB response cap as text (about 3.7 MB
 * JSON-encoded). In Lambda the bundle is copied beside the code (MailwrightFunction's
 * bundledFiles), so it resolves there as it does from node_modules locally.
 */
export const SCALAR_BUNDLE = '@scalar/api-reference/browser/standalone.js';

let bundle: string | undefined;

export function referenceBundle(): string {
  bundle ??= readFileSync(createRequire(import.meta.url).resolve(SCALAR_BUNDLE), 'utf8');
  return bundle;
}

/** Paths are relative to the page, so they work under the API Gateway stage (/api/docs) and locally (/docs). */
const INIT_SCRIPT = `Scalar.createApiReference('#reference', {
  url: 'openapi.json',
  servers: [{ url: new URL('.', location.href).href.replace(/\\/$/, ''), description: 'This API' }],
  withDefaultFonts: false,
  showDeveloperTools: 'never',
  defaultOpenAllTags: true,
  agent: { disabled: true },
  telemetry: false,
  authentication: { preferredSecurityScheme: 'secretKey' },
});`;

const scriptHash = `'sha256-${createHash('sha256').update(INIT_SCRIPT).digest('base64')}'`;

export const referencePage = {
  html: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailwright API reference</title>
</head>
<body>
<div id="reference"></div>
<script src="docs/scalar.js"></script>
<script>${INIT_SCRIPT}</script>
</body>
</html>
`,
  /** Scripts only from this API (the bundle and the hashed init script); requests ("try it") only to it. */
  contentSecurityPolicy: [
    "default-src 'self'",
    `script-src 'self' ${scriptHash}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; '),
};
