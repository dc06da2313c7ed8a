import type { OperationDoc } from '../http/operation-doc';

/** The OpenAPI entries of the unsubscribe link routes, keyed by route key ('METHOD /path'). */
export const unsubscribeOperations: Record<string, OperationDoc> = {
  'GET /unsubscribe/{token}': {
    operationId: 'openUnsubscribeLink',
    tag: 'Unsubscribe',
    summary: 'Unsubscribe link (browser)',
    description:
      'The link in marketing email (`{{unsubscribeUrl}}`, and the `List-Unsubscribe` header): answers a page with one **Unsubscribe** button (focused) and changes nothing, so a link scanner in a mail gateway that prefetches the link unsubscribes no one. The button POSTs to the same URL. The signed token is the credential.',
    success: { status: 200, description: 'The page asking to confirm', mediaType: 'text/html', schema: { type: 'string' } },
    rawResponses: [{ status: 400, description: 'The link is not valid', mediaType: 'text/html' }],
  },
  'POST /unsubscribe/{token}': {
    operationId: 'oneClickUnsubscribe',
    tag: 'Unsubscribe',
    summary: 'Unsubscribe (the page\'s button, or RFC 8058 one-click)',
    description:
      'Unsubscribes the contact (`contact.unsubscribed`, counted in the campaign whose mail carried the link; again: no change). Mail clients POST here for `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058) with the form-encoded body `List-Unsubscribe=One-Click`: the answer is `text/plain`. Any other body (the page\'s button) answers the unsubscribed page, with a re-subscribe button.',
    success: { status: 200, description: 'Unsubscribed: text/plain for one-click, else the unsubscribed page (text/html)', mediaType: 'text/plain', schema: { type: 'string' } },
    rawResponses: [
      { status: 400, description: 'The link is not valid: a page for the form', mediaType: 'text/html' },
      { status: 400, description: 'plain text for one-click', mediaType: 'text/plain' },
    ],
  },
  'POST /unsubscribe/{token}/resubscribe': {
    operationId: 'resubscribe',
    tag: 'Unsubscribe',
    summary: 'Re-subscribe (browser)',
    description:
      'The button on the unsubscribed page: subscribes the contact again (`contact.subscribed`).',
    success: { status: 200, description: 'The re-subscribed page', mediaType: 'text/html', schema: { type: 'string' } },
    rawResponses: [{ status: 400, description: 'The link is not valid', mediaType: 'text/html' }],
  },
};
