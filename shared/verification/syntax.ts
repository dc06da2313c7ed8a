import { domainToASCII } from 'node:url';
import { parse } from 'tldts';

/**
 * Address syntax as mail providers accept it (RFC 5321 for what travels in SMTP, RFC 5322 for the
 * character sets, RFC 5890 for internationalized domains). Pure: no I/O.
 *
 * Accepted: dot-atom local parts (no leading, trailing or double dot), quoted local parts
 * (`"john doe"@example.com`, allowed by the RFCs, noted because many providers reject them),
 * non-ASCII local parts (RFC 6531, noted), IDN domains (converted to punycode), domains with at
 * least one dot under a TLD of the public suffix list, plus the testing TLDs `.test` and
 * `.example` (RFC 2606/6761) so local DNS fixtures can use them.
 * Rejected: IP literals (`[1.2.3.4]`), other special-use names (`.localhost`, `.local`,
 * `.invalid`, `.onion`), bare public suffixes (`co.uk`), addresses over the length limits.
 */
export const emailLimits = {
  /** RFC 5321 4.5.3.1.3: a 256-octet path minus the angle brackets. */
  address: 254,
  /** RFC 5321 4.5.3.1.1 */
  localPart: 64,
  /** RFC 5321 4.5.3.1.2 */
  domain: 255,
  /** RFC 1035 2.3.4 */
  label: 63,
} as const;

/**
 * Special-use names reserved for testing and documentation (RFC 2606, RFC 6761): accepted, with a
 * note, so fixtures and docs can use them. Other special-use names (.localhost, .local, .invalid,
 * .onion, .alt, home.arpa…) are rejected.
 */
const DOCUMENTATION_NAMES = ['test', 'example', 'example.com', 'example.net', 'example.org'];
const documentationName = (domain: string) => DOCUMENTATION_NAMES.find((name) => domain === name || domain.endsWith(`.${name}`));

export interface SyntaxResult {
  ok: boolean;
  /** The local part as written (quotes kept); '' when there is no @. */
  localPart: string;
  /** The domain in ASCII (punycode for IDN), lower-cased; '' when it cannot be converted. */
  domain: string;
  /** The domain as written, lower-cased (Unicode for IDN). */
  displayDomain: string;
  /** Whether the local part is a quoted string. */
  quoted: boolean;
  /** The domain is a special-use name reserved for testing/documentation (.test, example.com…). */
  reserved: boolean;
  /** Why the address was rejected, then notes that do not reject it. */
  reasons: string[];
}

// RFC 5322 atext; non-ASCII (RFC 6532) is handled separately.
const ATEXT = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]$/;
// RFC 5321 Quoted-string: qtextSMTP (%d32-33 / %d35-91 / %d93-126) or quoted-pairSMTP (\ %d32-126).
const QUOTED = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])+"$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const show = (s: string, max = 40) => (s.length > max ? `${s.slice(0, max)}…` : s);

export function checkSyntax(input: string): SyntaxResult {
  const errors: string[] = [];
  const notes: string[] = [];
  const address = input.trim();
  const result = (localPart: string, domain: string, displayDomain: string, quoted: boolean): SyntaxResult => ({
    ok: errors.length === 0,
    localPart,
    domain,
    displayDomain,
    quoted,
    reserved: domain !== '' && documentationName(domain) !== undefined,
    reasons: [...errors, ...notes],
  });

  if (address === '') {
    errors.push('The address is empty.');
    return result('', '', '', false);
  }
  const at = address.lastIndexOf('@');
  if (at === -1) {
    errors.push('The address has no @ between the mailbox name and the domain.');
    return result('', '', '', false);
  }

  const localPart = address.slice(0, at);
  const rawDomain = address.slice(at + 1);
  const quoted = localPart.startsWith('"');
  checkLocalPart(localPart, quoted, errors, notes);
  const domain = checkDomain(rawDomain, errors, notes);

  const total = bytes(localPart) + 1 + (domain || rawDomain).length;
  if (total > emailLimits.address) {
    errors.push(`The address is ${total} characters long; the limit is ${emailLimits.address} (RFC 5321).`);
  }
  return result(localPart, domain, rawDomain.toLowerCase(), quoted);
}

function checkLocalPart(local: string, quoted: boolean, errors: string[], notes: string[]): void {
  if (local === '') {
    errors.push('The part before the @ is empty.');
    return;
  }
  if (bytes(local) > emailLimits.localPart) {
    errors.push(`The part before the @ is ${bytes(local)} characters long; the limit is ${emailLimits.localPart} (RFC 5321).`);
  }
  if (quoted) {
    if (QUOTED.test(local)) {
      notes.push(`The part before the @ is quoted (${show(local)}): the RFCs allow this, but many mail providers reject quoted addresses.`);
    } else {
      errors.push('The quoted part before the @ is malformed: it must be one "quoted string" of printable ASCII, with " and \\ escaped by a backslash.');
    }
    return;
  }
  if (local.startsWith('.')) errors.push('The part before the @ must not start with a dot.');
  if (local.endsWith('.')) errors.push('The part before the @ must not end with a dot.');
  if (local.includes('..')) errors.push('The part before the @ must not contain two dots in a row.');
  const invalid = new Set<string>();
  let nonAscii = false;
  for (const char of local) {
    if (char === '.' || ATEXT.test(char)) continue;
    const code = char.codePointAt(0)!;
    if (code > 0x9f) nonAscii = true;
    else invalid.add(char);
  }
  if (invalid.size > 0) {
    const list = [...invalid].map((c) => (c.trim() === '' || c.codePointAt(0)! < 0x20 ? JSON.stringify(c) : `"${c}"`)).join(', ');
    errors.push(`The part before the @ contains characters that are only allowed inside quotes: ${list}.`);
  }
  if (nonAscii && invalid.size === 0) {
    notes.push('The part before the @ has non-ASCII characters: this needs SMTPUTF8 (RFC 6531), which many mail providers do not support.');
  }
}

/** Returns the ASCII domain ('' if it cannot be converted) and records what is wrong with it. */
function checkDomain(raw: string, errors: string[], notes: string[]): string {
  if (raw === '') {
    errors.push('The domain after the @ is empty.');
    return '';
  }
  if (raw.startsWith('[') || IPV4.test(raw)) {
    errors.push(`The domain is an IP address (${show(raw)}): RFC 5321 allows address literals, but mail providers do not accept them; use a domain name.`);
    return '';
  }
  const ascii = domainToASCII(raw);
  if (ascii === '') {
    errors.push(`The domain "${show(raw)}" is not a valid domain name.`);
    return '';
  }
  if (/\P{ASCII}/u.test(raw)) {
    notes.push(`The internationalized domain ${raw.toLowerCase()} is ${ascii} in DNS (punycode).`);
  }
  if (ascii.length > emailLimits.domain) {
    errors.push(`The domain is ${ascii.length} characters long; the limit is ${emailLimits.domain} (RFC 5321).`);
  }

  const labels = ascii.split('.');
  let structurallyOk = true;
  if (labels.length < 2) {
    errors.push(`The domain "${show(ascii)}" has no dot; it needs a top-level domain, as in example.com.`);
    structurallyOk = false;
  }
  if (labels.some((label) => label === '')) {
    errors.push('The domain must not start or end with a dot or contain two dots in a row.');
    structurallyOk = false;
  }
  const long = labels.find((label) => label.length > emailLimits.label);
  if (long) {
    errors.push(`The domain label "${show(long, 20)}" is ${long.length} characters long; the limit is ${emailLimits.label} (RFC 1035).`);
    structurallyOk = false;
  }
  const bad = labels.find((label) => label !== '' && label.length <= emailLimits.label && !LABEL.test(label));
  if (bad) {
    errors.push(`The domain label "${show(bad, 20)}" may only have letters, digits and inner hyphens.`);
    structurallyOk = false;
  }
  if (!structurallyOk) return ascii;

  const tld = labels[labels.length - 1]!;
  const parsed = parse(ascii, { detectSpecialUse: true });
  if (parsed.isIp) {
    errors.push(`The domain is an IP address (${ascii}); mail providers need a domain name.`);
  } else if (parsed.isSpecialUse) {
    const reserved = documentationName(ascii);
    if (reserved) {
      notes.push(`${reserved.includes('.') ? reserved : `.${reserved}`} is reserved for testing and documentation (RFC 2606/6761); it is not a real mailbox provider.`);
    } else {
      errors.push(`${ascii} is a special-use name (RFC 6761, such as .localhost, .local, .invalid or .onion), not a public mail domain.`);
    }
  } else if (!parsed.isIcann) {
    errors.push(`The top-level domain .${tld} does not exist (it is not in the public suffix list).`);
  } else if (parsed.domain === null) {
    errors.push(`${ascii} is a public suffix (like com or co.uk), not a domain that can receive mail.`);
  }
  return ascii;
}
