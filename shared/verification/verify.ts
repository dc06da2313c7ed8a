import spellChecker from '@zootools/email-spell-checker';
import * as mailCheckerModule from 'mailchecker';
import { logger } from '../observability/logger';
import { lookupDomain, resolverFromEnvironment, type DnsOutcome, type MxResolver } from './dns';
import { checkSyntax } from './syntax';

// mailchecker is CommonJS: Node's ESM loader exposes its module.exports as `default` only,
// bundlers and jest as the namespace itself.
const mailChecker = (mailCheckerModule as { default?: typeof mailCheckerModule }).default ?? mailCheckerModule;

/** The spec's "Email verification result". */
export interface VerificationResult {
  email: string;
  valid: boolean;
  isDisposable: boolean;
  isAlias: boolean;
  isTypo: boolean;
  isPlusAddressed: boolean;
  domainExists: boolean;
  hasMxRecords: boolean;
  reasons: string[];
}

/**
 * Role accounts: local parts that name a function or a shared mailbox rather than a person
 * (RFC 2142 names and their common relatives). `isAlias` is true when the local part, lower-cased
 * and without its +tag, is one of these. It does not make an address invalid.
 */
export const ROLE_LOCAL_PARTS: ReadonlySet<string> = new Set([
  'abuse', 'admin', 'administrator', 'billing', 'contact', 'enquiries', 'feedback', 'hello', 'help',
  'hostmaster', 'info', 'inquiries', 'jobs', 'mail', 'mailer-daemon', 'marketing', 'no-reply', 'noc',
  'noreply', 'office', 'postmaster', 'privacy', 'root', 'sales', 'security', 'support', 'team',
  'webmaster',
]);

// Read once at cold start: LOCAL_DNS_FIXTURES → fixtures, otherwise the system resolver.
const defaultResolver = resolverFromEnvironment();

/**
 * Verifies an address: syntax, disposable domain, typo, plus tag, role account, then DNS.
 * valid = syntax ok AND not disposable AND domainExists AND (MX records OR an A/AAAA fallback),
 * a null MX (RFC 7505) counting as no MX. A likely typo, a role account or a +tag is reported but
 * does not make the address invalid. Never throws for any string.
 */
export async function verifyEmail(input: string, resolver: MxResolver = defaultResolver): Promise<VerificationResult> {
  const syntax = checkSyntax(input);
  const trimmed = input.trim();
  const email = syntax.localPart ? `${syntax.localPart}@${syntax.displayDomain}` : trimmed;
  const result: VerificationResult = {
    email,
    valid: false,
    isDisposable: false,
    isAlias: false,
    isTypo: false,
    isPlusAddressed: false,
    domainExists: false,
    hasMxRecords: false,
    reasons: [],
  };
  if (!syntax.ok) {
    result.reasons = ['The address is not valid.', ...syntax.reasons];
    return result;
  }

  const { localPart, domain } = syntax;
  const reasons: string[] = [...syntax.reasons];

  const mailbox = syntax.quoted ? localPart : localPart.toLowerCase();
  const plus = syntax.quoted ? -1 : mailbox.indexOf('+');
  result.isPlusAddressed = plus > 0;
  const base = result.isPlusAddressed ? mailbox.slice(0, plus) : mailbox;
  if (result.isPlusAddressed) {
    const tag = localPart.slice(plus + 1);
    reasons.push(`The address has a +tag (${tag ? `"${tag}"` : 'empty'}): most providers deliver it to ${localPart.slice(0, plus)}@${syntax.displayDomain}.`);
  }

  result.isAlias = !syntax.quoted && ROLE_LOCAL_PARTS.has(base);
  if (result.isAlias) reasons.push(`${base}@ is a role address (a shared mailbox), not a person.`);

  result.isDisposable = isDisposableDomain(domain);
  if (result.isDisposable) reasons.push(`${syntax.displayDomain} is a disposable (throwaway) email provider.`);

  const suggestion = syntax.reserved ? undefined : suggestDomain(domain);
  if (suggestion) {
    result.isTypo = true;
    reasons.push(`The domain looks like a typo. Did you mean ${localPart}@${suggestion}?`);
  }

  const dns = await lookupDomain(domain, resolver);
  if (dns.unreachable) logger.warn('DNS lookup for address verification failed', { domain, code: dns.unreachableCode });
  result.domainExists = dns.domainExists === true;
  result.hasMxRecords = dns.hasMx;
  reasons.push(...dnsReasons(syntax.displayDomain, dns));

  const deliverable = result.domainExists && (dns.hasMx || dns.aFallback) && !dns.nullMx;
  result.valid = deliverable && !result.isDisposable;
  if (result.valid) {
    reasons.unshift('The address is valid: its syntax is correct and its domain accepts mail.');
  } else {
    reasons.unshift(dns.unreachable && !result.isDisposable && dns.domainExists !== false
      ? 'The address could not be fully verified, so it is not reported as valid.'
      : 'The address is not valid.');
  }
  result.reasons = reasons;
  return result;
}

function dnsReasons(domain: string, dns: DnsOutcome): string[] {
  if (dns.unreachable) {
    const why = dns.unreachableCode === 'ESINKHOLE'
      ? 'the resolver denies that real top-level domains exist, so it is not answering from the internet'
      : `error ${dns.unreachableCode}`;
    return dns.domainExists === true
      ? [`${domain} exists and has no MX records, but DNS could not be reached to look for an A/AAAA fallback (${why}); whether it accepts mail is unknown.`]
      : [`DNS could not be reached (${why}); whether ${domain} exists is unknown, so it is reported as not found.`];
  }
  if (!dns.domainExists) return [`The domain ${domain} does not exist (DNS answered NXDOMAIN).`];
  if (dns.nullMx) return [`${domain} publishes a null MX record (RFC 7505): it accepts no email.`];
  if (dns.hasMx) return [`${domain} has MX records (${dns.exchanges.slice(0, 3).join(', ')}${dns.exchanges.length > 3 ? ', …' : ''}).`];
  if (dns.aFallback) return [`${domain} has no MX records; mail would be delivered to its A/AAAA record.`];
  return [`${domain} exists but has no MX, A or AAAA records: it cannot receive email.`];
}

/** The domain or any parent domain is on mailchecker's list (sub.mailinator.com counts). */
export function isDisposableDomain(domain: string): boolean {
  const list = mailChecker.blacklist();
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (list.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

/**
 * Mail providers a suggestion may point to, and that are never themselves reported as typos: the
 * spell checker's popular domains plus large providers it lacks (without them gmx.net would be
 * "corrected" to cox.net and protonmail.ch to protonmail.com).
 */
const KNOWN_MAIL_DOMAINS: readonly string[] = [
  ...new Set([
    ...spellChecker.POPULAR_DOMAINS,
    'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'yahoo.com',
    'icloud.com', 'me.com', 'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'protonmail.ch',
    'pm.me', 'fastmail.com', 'tutanota.com', 'zoho.com', 'mail.com', 'gmx.com', 'gmx.net', 'gmx.de',
    'gmx.at', 'gmx.ch', 'web.de', 't-online.de', 'orange.fr', 'free.fr', 'laposte.net', 'sfr.fr',
    'libero.it', 'virgilio.it', 'hotmail.co.uk', 'hotmail.fr', 'hotmail.de', 'hotmail.it',
    'outlook.de', 'outlook.fr', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'yahoo.co.jp', 'mail.ru',
    'yandex.ru', 'yandex.com', 'qq.com', '163.com', '126.com', 'naver.com', 'seznam.cz', 'wp.pl',
    'o2.pl', 'interia.pl', 'btinternet.com', 'comcast.net',
  ]),
];
const KNOWN = new Set(KNOWN_MAIL_DOMAINS);
const firstLabel = (domain: string) => domain.slice(0, domain.indexOf('.'));

/**
 * The popular provider domain this one is likely a misspelling of (gmial.com → gmail.com), from
 * @zootools/email-spell-checker. A suggestion counts when it is a known provider domain or fixes
 * the provider name; a suggestion that only swaps the top-level domain of an unknown domain
 * (acme.berlin → acme.be) is ignored.
 */
export function suggestDomain(domain: string): string | undefined {
  if (KNOWN.has(domain)) return undefined;
  try {
    const suggestion = spellChecker.run({ email: `x@${domain}`, domains: [...KNOWN_MAIL_DOMAINS] });
    if (!suggestion || suggestion.domain === domain) return undefined;
    if (KNOWN.has(suggestion.domain) || firstLabel(suggestion.domain) !== firstLabel(domain)) return suggestion.domain;
    return undefined;
  } catch {
    return undefined;
  }
}
