import { readFileSync } from 'node:fs';
import { Resolver } from 'node:dns/promises';
import path from 'node:path';
import { parse } from 'tldts';
import * as v from 'valibot';
import { ConfigError, optionalEnv } from '../config/env';
import { variables } from '../config/variables';

/**
 * DNS for address verification. Everything goes through an injectable MxResolver:
 * - the system one (node:dns Resolver, 2 s timeout, 1 try), which also refuses to believe a
 *   resolver that denies the existence of a real top-level domain (a sinkhole or offline resolver
 *   answers NXDOMAIN for everything; that is "unreachable", not "does not exist");
 * - a fixtures one built from the JSON file named by LOCAL_DNS_FIXTURES, for offline demos;
 * - both wrapped in a TTL cache (successes, NXDOMAIN and NODATA are cached; network errors are not).
 * lookupDomain() bounds the whole lookup (MX, then A/AAAA) to one 2 s budget, whatever the resolver.
 */
export interface MxRecord {
  exchange: string;
  priority: number;
}

export interface MxResolver {
  resolveMx(domain: string): Promise<MxRecord[]>;
  resolve4(domain: string): Promise<string[]>;
  resolve6(domain: string): Promise<string[]>;
}

export interface DnsOutcome {
  /** 'unknown' when DNS could not be reached before the domain was seen to exist. */
  domainExists: boolean | 'unknown';
  /** Usable MX records (a null MX is not one). */
  hasMx: boolean;
  /** RFC 7505: the domain declares that it accepts no mail. */
  nullMx: boolean;
  /** No MX, but A/AAAA records: RFC 5321 5.1 delivers to the address records. */
  aFallback: boolean;
  /** A lookup failed for a reason other than NXDOMAIN/NODATA (timeout, refused, SERVFAIL…). */
  unreachable: boolean;
  /** Why DNS was unreachable (error code), for the reasons. */
  unreachableCode?: string;
  /** The MX hosts, best priority first. */
  exchanges: string[];
}

export const DNS_TIMEOUT_MS = 2000;
export const DNS_CACHE_TTL_MS = 5 * 60 * 1000;
export const DNS_CACHE_MAX_ENTRIES = 5000;

/** The codes that are answers about the name; every other failure means DNS was not reached. */
const NXDOMAIN = 'ENOTFOUND';
const NODATA = 'ENODATA';

export class DnsError extends Error {
  override name = 'DnsError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const errorCode = (error: unknown): string =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : 'EUNKNOWN';

const isNullMx = (record: MxRecord) => record.exchange === '' || record.exchange === '.';

/** Rejects with ETIMEOUT after `ms`; the timer never keeps the process alive. */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DnsError('ETIMEOUT', `${what} timed out after ${ms} ms`)), Math.max(0, ms));
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

type Answer<T> = { ok: true; value: T } | { ok: false; code: string };

async function answer<T>(query: () => Promise<T>, deadline: number, what: string): Promise<Answer<T>> {
  try {
    return { ok: true, value: await withTimeout(Promise.resolve().then(query), deadline - Date.now(), what) };
  } catch (error) {
    return { ok: false, code: errorCode(error) };
  }
}

/**
 * What DNS says about a domain's mail: MX first; with no MX (NODATA or an empty answer), the
 * A/AAAA fallback; a null MX means no mail and no fallback (RFC 7505). Never throws.
 */
export async function lookupDomain(domain: string, resolver: MxResolver, budgetMs = DNS_TIMEOUT_MS): Promise<DnsOutcome> {
  const deadline = Date.now() + budgetMs;
  const outcome: DnsOutcome = { domainExists: false, hasMx: false, nullMx: false, aFallback: false, unreachable: false, exchanges: [] };
  const unreachable = (code: string, exists: boolean | 'unknown'): DnsOutcome => ({ ...outcome, domainExists: exists, unreachable: true, unreachableCode: code });

  const mx = await answer(() => resolver.resolveMx(domain), deadline, `MX lookup of ${domain}`);
  if (!mx.ok) {
    if (mx.code === NXDOMAIN) return outcome;
    if (mx.code !== NODATA) return unreachable(mx.code, 'unknown');
  } else if (mx.value.length > 0) {
    const nullMx = mx.value.some(isNullMx);
    const exchanges = nullMx ? [] : [...mx.value].sort((a, b) => a.priority - b.priority).map((r) => r.exchange.replace(/\.$/, ''));
    return { ...outcome, domainExists: true, hasMx: !nullMx, nullMx, exchanges };
  }

  // The name exists but has no MX: RFC 5321 5.1 falls back to its A/AAAA records.
  const [a, aaaa] = await Promise.all([
    answer(() => resolver.resolve4(domain), deadline, `A lookup of ${domain}`),
    answer(() => resolver.resolve6(domain), deadline, `AAAA lookup of ${domain}`),
  ]);
  const found = (r: Answer<string[]>) => r.ok && r.value.length > 0;
  const failed = [a, aaaa].find((r): r is { ok: false; code: string } => !r.ok && r.code !== NXDOMAIN && r.code !== NODATA);
  if (found(a) || found(aaaa)) return { ...outcome, domainExists: true, aFallback: true };
  if (failed) return unreachable(failed.code, true);
  return { ...outcome, domainExists: true };
}

/**
 * node:dns with a 2 s timeout and one try. A resolver that answers NXDOMAIN for a name under an
 * ICANN top-level domain is asked about the top-level domain itself: if it denies that too (an
 * offline or sinkhole resolver does), the answer becomes ESINKHOLE, which counts as unreachable.
 */
export function createSystemResolver(timeoutMs = DNS_TIMEOUT_MS): MxResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  const guard = async <T>(domain: string, query: () => Promise<T>, what: string): Promise<T> => {
    try {
      return await withTimeout(query(), timeoutMs, `${what} lookup of ${domain}`);
    } catch (error) {
      if (errorCode(error) === NXDOMAIN && (await tldDenied(domain))) {
        throw new DnsError('ESINKHOLE', `The DNS resolver denies that the top-level domain of ${domain} exists`);
      }
      throw error;
    }
  };
  const tldDenied = async (domain: string): Promise<boolean> => {
    if (parse(domain).isIcann !== true) return false;
    const tld = domain.slice(domain.lastIndexOf('.') + 1);
    try {
      await withTimeout(resolver.resolveSoa(tld), timeoutMs, `SOA lookup of ${tld}`);
      return false;
    } catch (error) {
      return errorCode(error) === NXDOMAIN;
    }
  };
  return {
    resolveMx: (domain) => guard(domain, () => resolver.resolveMx(domain), 'MX'),
    resolve4: (domain) => guard(domain, () => resolver.resolve4(domain), 'A'),
    resolve6: (domain) => guard(domain, () => resolver.resolve6(domain), 'AAAA'),
  };
}

const fixtureRecordSchema = v.nullable(
  v.strictObject({
    mx: v.optional(v.array(v.strictObject({ exchange: v.string(), priority: v.pipe(v.number(), v.integer(), v.minValue(0)) }))),
    a: v.optional(v.array(v.string())),
    aaaa: v.optional(v.array(v.string())),
    /** Simulates a failure for every query of this name, e.g. "ETIMEOUT" or "ESERVFAIL". */
    error: v.optional(v.pipe(v.string(), v.regex(/^E[A-Z_]+$/))),
  }),
);
export const dnsFixturesSchema = v.record(v.string(), fixtureRecordSchema);
export type DnsFixtures = v.InferOutput<typeof dnsFixturesSchema>;

/**
 * Answers from fixtures: `{ "example.com": { "mx": [...], "a": [...], "aaaa": [...] },
 * "nxdomain.test": null, "down.test": { "error": "ETIMEOUT" } }`. A name that is absent or null
 * is NXDOMAIN; a record type that is absent or empty is NODATA. Names are case-insensitive.
 */
export function createFixturesResolver(fixtures: DnsFixtures): MxResolver {
  const table = new Map(Object.entries(fixtures).map(([name, record]) => [name.toLowerCase().replace(/\.$/, ''), record]));
  const query = async <T>(domain: string, type: 'mx' | 'a' | 'aaaa'): Promise<T[]> => {
    const name = domain.toLowerCase().replace(/\.$/, '');
    const record = table.get(name);
    if (!record) throw new DnsError(NXDOMAIN, `query${type.toUpperCase()} ENOTFOUND ${name}`);
    if (record.error) throw new DnsError(record.error, `query${type.toUpperCase()} ${record.error} ${name}`);
    const values = record[type];
    if (!values || values.length === 0) throw new DnsError(NODATA, `query${type.toUpperCase()} ENODATA ${name}`);
    return structuredClone(values) as T[];
  };
  return {
    resolveMx: (domain) => query<MxRecord>(domain, 'mx'),
    resolve4: (domain) => query<string>(domain, 'a'),
    resolve6: (domain) => query<string>(domain, 'aaaa'),
  };
}

/** Reads and validates a fixtures file; a missing or malformed file is a ConfigError. */
export function loadDnsFixtures(file: string): DnsFixtures {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path.resolve(file), 'utf8'));
  } catch (error) {
    throw new ConfigError(`LOCAL_DNS_FIXTURES: cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  const result = v.safeParse(dnsFixturesSchema, json);
  if (!result.success) {
    const issue = result.issues[0];
    const where = (issue.path ?? []).map((item) => String(item.key)).join('.');
    throw new ConfigError(`LOCAL_DNS_FIXTURES: ${file} is not a DNS fixtures file (${where || 'root'}: ${issue.message})`);
  }
  return result.output;
}

interface CacheEntry {
  expires: number;
  value: Promise<unknown>;
}

/**
 * A TTL cache in front of a resolver: answers and NXDOMAIN/NODATA are kept `ttlMs`; concurrent
 * queries for one name share one lookup; other failures (timeouts…) are dropped so the next
 * request asks again. At most `maxEntries` names, the oldest evicted first.
 */
export function createCachingResolver(
  resolver: MxResolver,
  { ttlMs = DNS_CACHE_TTL_MS, maxEntries = DNS_CACHE_MAX_ENTRIES, now = Date.now }: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): MxResolver {
  const cache = new Map<string, CacheEntry>();
  const cached = <T>(type: string, domain: string, query: () => Promise<T>): Promise<T> => {
    const key = `${type} ${domain.toLowerCase()}`;
    const hit = cache.get(key);
    if (hit && hit.expires > now()) return hit.value as Promise<T>;
    if (hit) cache.delete(key);
    const value = Promise.resolve().then(query);
    const entry = { expires: now() + ttlMs, value };
    cache.set(key, entry);
    value.catch((error) => {
      const code = errorCode(error);
      if (code !== NXDOMAIN && code !== NODATA && cache.get(key) === entry) cache.delete(key);
    });
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
    return value;
  };
  return {
    resolveMx: (domain) => cached('MX', domain, () => resolver.resolveMx(domain)),
    resolve4: (domain) => cached('A', domain, () => resolver.resolve4(domain)),
    resolve6: (domain) => cached('AAAA', domain, () => resolver.resolve6(domain)),
  };
}

/**
 * The resolver a function uses, chosen once at cold start: LOCAL_DNS_FIXTURES (a path to a JSON
 * fixtures file) → fixtures, otherwise the system resolver; cached either way.
 */
export function resolverFromEnvironment(env: NodeJS.ProcessEnv = process.env): MxResolver {
  const fixtures = optionalEnv(variables.localDnsFixtures, env)?.trim();
  return createCachingResolver(fixtures ? createFixturesResolver(loadDnsFixtures(fixtures)) : createSystemResolver());
}
