import { domainToASCII } from 'node:url';
import { parse } from 'tldts';
import * as v from 'valibot';

/**
 * A sending domain: lower-cased (IDN → punycode), a registrable domain or a subdomain of one —
 * never an IP address, a bare public suffix (`co.uk`) or a single label.
 */
export const domainNameSchema = v.pipe(
  v.string('domain must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.transform((domain) => domainToASCII(domain.replace(/\.$/, '')) || domain),
  v.maxLength(253, 'domain is at most 253 characters'),
  v.check((domain) => {
    const parsed = parse(domain);
    return !parsed.isIp && parsed.domain !== null && parsed.hostname === domain && /^[a-z0-9.-]+$/.test(domain) && domain.split('.').every((label) => label.length > 0 && label.length <= 63 && !label.startsWith('-') && !label.endsWith('-'));
  }, 'domain must be a domain name such as example.com or mail.example.com (not an IP address or a public suffix)'),
);

export const createDomainSchema = v.object({ domain: domainNameSchema });
