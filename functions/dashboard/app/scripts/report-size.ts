import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The budget for the JavaScript a first visit loads (gzipped). */
export const INITIAL_JS_BUDGET_BYTES = 200 * 1024;

/**
 * The JavaScript a first visit downloads: the scripts and module preloads index.html names
 * (lazy chunks load later, on the pages that need them).
 */
export function initialScripts(indexHtml: string): string[] {
  const names = [...indexHtml.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((match) => match[1]!);
  return [...new Set(names.map((name) => name.replace(/^\.\//, '')))];
}

export function initialJsReport(distDir: string) {
  const files = initialScripts(readFileSync(path.join(distDir, 'index.html'), 'utf8')).map((name) => ({ name, gzipBytes: gzipSync(readFileSync(path.join(distDir, name))).length }));
  return { files, totalGzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = initialJsReport(fileURLToPath(new URL('../../dist/', import.meta.url)));
  for (const file of report.files) console.log(`  ${file.name.padEnd(40)} ${(file.gzipBytes / 1024).toFixed(1)} KB gzipped`);
  console.log(`Dashboard initial JavaScript: ${(report.totalGzipBytes / 1024).toFixed(1)} KB gzipped (budget ${INITIAL_JS_BUDGET_BYTES / 1024} KB)`);
  if (report.totalGzipBytes > INITIAL_JS_BUDGET_BYTES) {
    console.error('Over the initial JavaScript budget');
    process.exit(1);
  }
}
