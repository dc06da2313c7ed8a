/**
 * `npm run openapi [file]`: writes the OpenAPI document generated from the code (default
 * client/openapi.json). Warns about routes without docs (left out of the document; the contract
 * test fails on them) and docs without a route.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// A response schema module (shared/workflows/responses.ts → shared/stats/stats.ts) reads TABLE_NAME
// when imported; the generator itself calls no AWS API, so any name does.
process.env.TABLE_NAME ??= 'mailwright-openapi-generator';
const { buildOpenApiDocument, documentationGaps } = await import('../../shared/contract/document');

const file = path.resolve(process.argv[2] ?? 'client/openapi.json');
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`Wrote ${path.relative(process.cwd(), file)}`);

const gaps = documentationGaps();
if (gaps.undocumented.length || gaps.unrouted.length) {
  console.warn(`Warning: routes without docs: ${gaps.undocumented.join(', ') || 'none'}; docs without a route: ${gaps.unrouted.join(', ') || 'none'} (each domain's shared/<domain>/operations.ts, collected in shared/contract/operations.ts)`);
}
