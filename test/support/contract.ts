import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from '../../shared/contract/document';

/**
 * Validates real responses against the OpenAPI document (ajv, JSON Schema 2020-12 as OpenAPI
 * 3.1 uses it). test/support/api-client.ts runs every response of a documented route through
 * it, so no integration test can pass on a response the document does not describe.
 */
export class ContractValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { method: string; path: string; pattern: RegExp; statics: number }[];
  validated = 0;

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.templates = Object.entries<Record<string, unknown>>(document.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path, pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`), statics: path.split('/').filter((part) => part && !part.startsWith('{')).length })))
      // Like API Gateway, a static segment wins over a {param}.
      .sort((a, b) => b.statics - a.statics);
  }

  /** The documented path template of a request, or undefined for a route the document does not have. */
  templateOf(method: string, url: string): string | undefined {
    const pathname = new URL(url, 'http://localhost').pathname;
    return this.templates.find((template) => template.method === method.toUpperCase() && template.pattern.test(pathname))?.path;
  }

  /** Throws with the differences when a response of a documented route does not match the document. */
  validate(method: string, url: string, response: { status: number; contentType: string | null; body: unknown }): void {
    const path = this.templateOf(method, url);
    if (!path) return;
    const operation = this.document.paths[path][method.toLowerCase()];
    const documented = operation.responses[String(response.status)] ?? operation.responses.default;
    const where = `${method.toUpperCase()} ${path} → ${response.status}`;
    if (!documented) throw new Error(`Contract: ${where} is not a documented response`);
    const media = Object.entries<{ schema?: unknown }>(documented.content ?? {});
    if (media.length === 0) return;
    // A response may document several media types (an HTML page for a browser, plain text for a mail client).
    const [mediaType, matched] = media.find(([type]) => response.contentType?.startsWith(type)) ?? [];
    if (!mediaType) throw new Error(`Contract: ${where} answered ${response.contentType}, documented ${media.map(([type]) => type).join(' or ')}`);
    if (mediaType !== 'application/json' || !matched?.schema) return;
    const key = `${where}:${response.status in operation.responses ? response.status : 'default'}`;
    let check = this.compiled.get(key);
    if (!check) {
      check = this.ajv.compile({ ...(matched.schema as object), components: this.document.components });
      this.compiled.set(key, check);
    }
    if (!check(response.body)) {
      throw new Error(`Contract: ${where} does not match the document: ${this.ajv.errorsText(check.errors, { separator: '; ' })}\n${JSON.stringify(response.body).slice(0, 2000)}`);
    }
    this.validated++;
  }
}
