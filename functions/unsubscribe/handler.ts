import { createHttpHandler } from '../../shared/http/handler';
import { confirmPage, invalidLinkPage, resubscribedPage, unsubscribedPage } from '../../shared/unsubscribe/pages';
import { isOneClick, isValidLink, resubscribe, unsubscribe } from '../../shared/unsubscribe/unsubscribe';

const tokenOf = (pathParameters: Record<string, string | undefined>) => pathParameters.token ?? '';

/** Routes without the authorizer: the token in the path is the credential (shared/unsubscribe). */
export const handler = createHttpHandler({
  /** The link opened in a browser (or prefetched by a scanner): a page that asks, nothing changed. */
  'GET /unsubscribe/{token}': async ({ pathParameters }) => {
    const token = tokenOf(pathParameters);
    return isValidLink(token) ? confirmPage(token) : invalidLinkPage();
  },

  /** The page's button (an HTML answer, with a re-subscribe button) or RFC 8058 one-click (plain text). */
  'POST /unsubscribe/{token}': async ({ pathParameters, rawBody }) => {
    const token = tokenOf(pathParameters);
    const done = (await unsubscribe(token)) === 'done';
    if (!isOneClick(rawBody)) return done ? unsubscribedPage(token) : invalidLinkPage();
    return { statusCode: done ? 200 : 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: done ? 'Unsubscribed\n' : 'This unsubscribe link is not valid\n' };
  },

  'POST /unsubscribe/{token}/resubscribe': async ({ pathParameters }) =>
    (await resubscribe(tokenOf(pathParameters))) === 'done' ? resubscribedPage() : invalidLinkPage(),
});
