import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { optionalEnv } from '../config/env';
import { variables } from '../config/variables';
import { validationFailed } from '../http/errors';
import { errorCode, resolverFromEnvironment, type MxResolver } from '../verification/dns';
import { blockedReason } from './addresses';

/**
 * The one SSRF-safe way out of the service to a URL a user gave (webhook endpoints, the workflow
 * WEBHOOK step): https only, and every address the host resolves to must be public — checked when
 * the URL is accepted (assertPublicDestination) and again when the connection is made (the
 * socket's `lookup`), so a name that resolves to a public address at the check and to
 * 169.254.169.254 a second later (DNS rebinding) is still refused. Hosts listed in
 * WEBHOOK_ALLOWED_HOSTS (local receivers, tests) skip both checks and may use http.
 */
export type AddressResolver = Pick<MxResolver, 'resolve4' | 'resolve6'>;

export interface OutboundOptions {
  /** Host names or IP addresses let through unchecked (lower case, IPv6 without brackets). */
  allowedHosts: ReadonlySet<string>;
  resolver: AddressResolver;
}

export interface PostResult {
  /** The HTTP status, or 0 when no response came (refused, timed out, connection error). */
  status: number;
  /** Why it was not a 2xx: the network error, or the status line and the start of the body. */
  error?: string;
}

export interface PostJsonInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
/** How much of a failed response's body is kept as its error text. */
const ERROR_BODY_CHARS = 200;
const USER_AGENT = 'Mailwright-Webhooks/1.0';

/** WEBHOOK_ALLOWED_HOSTS: a comma list of host names or IPs (empty by default). */
export function parseAllowedHosts(raw: string | undefined): Set<string> {
  return new Set(
    (raw ?? '')
      .split(',')
      .map((host) => normalizeHost(host.trim()))
      .filter(Boolean),
  );
}

const normalizeHost = (host: string) => host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');

class DestinationRefused extends Error {
  override name = 'DestinationRefused';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function createOutbound({ allowedHosts, resolver }: OutboundOptions) {
  /** The parsed URL and whether its host is allowed unchecked; throws DestinationRefused. */
  function parseDestination(raw: string): { url: URL; host: string; allowed: boolean } {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new DestinationRefused('INVALID_URL', 'url must be an absolute URL such as https://example.com/webhooks');
    }
    const host = normalizeHost(url.hostname);
    const allowed = allowedHosts.has(host);
    if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:')) {
      throw new DestinationRefused('INSECURE_URL', 'url must use https');
    }
    if (url.username || url.password) throw new DestinationRefused('INVALID_URL', 'url must not contain credentials');
    if (!allowed && isIP(host)) refuseBlocked(host, host);
    return { url, host, allowed };
  }

  function refuseBlocked(host: string, address: string) {
    const reason = blockedReason(address);
    if (reason) {
      throw new DestinationRefused('PRIVATE_ADDRESS', `url must point to a public address; ${host === address ? host : `${host} resolves to ${address}`} is ${reason}`);
    }
  }

  /** Every address of the name, each checked: one private address refuses the name. */
  async function publicAddresses(host: string): Promise<LookupAddress[]> {
    if (isIP(host)) {
      refuseBlocked(host, host);
      return [{ address: host, family: isIP(host) }];
    }
    const answers = await Promise.all([
      resolver.resolve4(host).then((list) => list.map((address) => ({ address, family: 4 })), tolerateNoData),
      resolver.resolve6(host).then((list) => list.map((address) => ({ address, family: 6 })), tolerateNoData),
    ]);
    const addresses = answers.flat();
    if (addresses.length === 0) throw new DestinationRefused('UNRESOLVABLE_HOST', `url's host ${host} does not resolve to an address`);
    for (const { address } of addresses) refuseBlocked(host, address);
    return addresses;
  }

  /**
   * The socket's lookup: the addresses are resolved and checked here, at connect time, and the
   * connection goes only to what was checked. Allowed hosts resolve through the system as usual.
   */
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    const host = normalizeHost(hostname);
    if (allowedHosts.has(host)) return systemLookup(hostname, options, callback);
    publicAddresses(host).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${host} has no IPv${options.family} address`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) return callback(null, wanted);
        callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: Error) => callback(Object.assign(error, { code: (error as DestinationRefused).code ?? 'ENOTFOUND' }), '', 0),
    );
  };

  return {
    /** 422 VALIDATION_ERROR (field `url`) unless the URL may be called; resolves the host. */
    async assertPublicDestination(url: string): Promise<void> {
      try {
        const destination = parseDestination(url);
        if (!destination.allowed) await publicAddresses(destination.host);
      } catch (error) {
        if (error instanceof DestinationRefused) throw validationFailed([{ field: 'url', message: error.message, code: error.code }]);
        throw error;
      }
    },

    /**
     * One POST of a JSON body. Never throws for a failed delivery: a refused destination, a
     * network error, a timeout or a non-2xx answer come back as `{ status, error }`. Redirects are
     * answers like any other (3xx is not a success) and are never followed.
     */
    postJson({ url, headers, body, timeoutMs = DEFAULT_TIMEOUT_MS }: PostJsonInput): Promise<PostResult> {
      let destination: ReturnType<typeof parseDestination>;
      try {
        destination = parseDestination(url);
      } catch (error) {
        return Promise.resolve({ status: 0, error: (error as Error).message });
      }
      const transport = destination.url.protocol === 'https:' ? https : http;
      return new Promise<PostResult>((resolve) => {
        let settled = false;
        const finish = (result: PostResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(result);
        };
        const request = transport.request(
          destination.url,
          {
            method: 'POST',
            lookup: checkedLookup,
            agent: false,
            headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...headers, 'content-length': String(Buffer.byteLength(body)) },
          },
          (response) => {
            const status = response.statusCode ?? 0;
            const chunks: Buffer[] = [];
            let kept = 0;
            response.on('data', (chunk: Buffer) => {
              if (kept < ERROR_BODY_CHARS) chunks.push(chunk);
              kept += chunk.length;
            });
            response.on('end', () => {
              if (status >= 200 && status < 300) return finish({ status });
              const text = Buffer.concat(chunks).toString('utf8').slice(0, ERROR_BODY_CHARS).trim();
              finish({ status, error: `HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}${text ? `: ${text}` : ''}` });
            });
            response.on('error', (error) => finish({ status, error: error.message }));
          },
        );
        const timer = setTimeout(() => {
          request.destroy();
          finish({ status: 0, error: `No response within ${timeoutMs / 1000} s` });
        }, timeoutMs);
        request.on('error', (error) => finish({ status: 0, error: describeNetworkError(error) }));
        request.end(body);
      });
    },
  };
}

const tolerateNoData = (error: unknown): LookupAddress[] => {
  const code = errorCode(error);
  if (code === 'ENODATA' || code === 'ENOTFOUND') return [];
  throw new DestinationRefused('UNRESOLVABLE_HOST', `the host could not be resolved (${code})`);
};

const describeNetworkError = (error: Error) => {
  const code = errorCode(error);
  return code === 'EUNKNOWN' || error.message.includes(code) ? error.message : `${code}: ${error.message}`;
};

/** Standard Webhooks headers; one `v1,<signature>` per secret, so a rotated secret signs beside the new one. */
export function signPayload({ secrets, id, timestamp, body }: { secrets: string[]; id: string; timestamp: Date; body: string }): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body)).join(' '),
  };
}

// Read once at cold start.
const outbound = createOutbound({ allowedHosts: parseAllowedHosts(optionalEnv(variables.webhookAllowedHosts)), resolver: resolverFromEnvironment() });

export const assertPublicDestination = outbound.assertPublicDestination;
export const postJson = outbound.postJson;
