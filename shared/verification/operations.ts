import type { OperationDoc } from '../http/operation-doc';
import { verificationResponseSchema } from './responses';
import { verifyRequestSchema } from './schemas';

/** The OpenAPI entries of the address verification route, keyed by route key ('METHOD /path'). */
export const verificationOperations: Record<string, OperationDoc> = {
  'POST /v1/verify': {
    operationId: 'verifyEmail',
    tag: 'Sending',
    summary: 'Verify an email address',
    description: [
      'Checks an address without sending anything. Any string, even `not-an-email`, is a 200 with `valid: false` and the reason; `reasons` are sentences a person can read, the verdict first (e.g. "Did you mean john+news@gmail.com?"). `email` echoes the address trimmed, its domain lower-cased.',
      '- **Syntax** (RFC 5321/5322 as providers accept it): address up to 254, local part up to 64, domain up to 255, labels up to 63 characters; no leading, trailing or double dots; quoted local parts accepted with a note that many providers refuse them; IDN domains checked as punycode; the domain needs a dot and a real TLD; IP literals, bare public suffixes and special-use names (`.local`, `.localhost`, `.invalid`, `.onion`) are refused; `.test`, `.example` and `example.com/.net/.org` are accepted with a note.',
      '- **isDisposable**: the domain or a parent is a known disposable-mail domain.',
      '- **isTypo**: a likely typo of a well-known provider (`gmial.com` → `gmail.com`), suggested in `reasons`; a typo alone does not make the address invalid.',
      '- **isPlusAddressed**: a `+tag` after at least one character of the local part.',
      '- **isAlias**: a role account (a shared mailbox, not a person): the local part without its `+tag` is one of abuse, admin, administrator, billing, contact, enquiries, feedback, hello, help, hostmaster, info, inquiries, jobs, mail, mailer-daemon, marketing, no-reply, noc, noreply, office, postmaster, privacy, root, sales, security, support, team, webmaster. Not a reason for `valid: false`.',
      '- **DNS**: `domainExists` is false only when the domain does not exist (NXDOMAIN); `hasMxRecords` means usable MX records; a null MX (RFC 7505) means the domain takes no mail; with no MX, A/AAAA records are the fallback and `reasons` say so. At most 2 s of DNS per verification; answers are cached 5 minutes, failures not. When DNS cannot be reached, `domainExists` and `valid` are false and `reasons` say existence is unknown — never a 500.',
      '- **valid** = syntax ok AND not disposable AND the domain exists AND (MX records OR the A/AAAA fallback) AND no null MX.',
    ].join('\n'),
    body: verifyRequestSchema,
    bodyExample: { email: 'ada@gmial.com' },
    success: { status: 200, description: 'The verdict', data: verificationResponseSchema },
  },
};
