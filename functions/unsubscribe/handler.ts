import { createHttpHandler } from '../../shared/http/handler';
import { invalidLinkPage, resubscribedPage, unsubscribedPage } from '../../shared/unsubscribe/pages';
import { resubscribe, unsubscribe } from '../../shared/unsubscribe/unsubscribe';

const tokenOf = (pathParameters: Record<string, string | undefined>) => pathParameters.token ?? '';

/** Routes without the authorizer: the token in the path is the credential (shared/unsubscribe). */
export const handler = createHttpHandler({
  /** The link opened in a browser: unsubscribes and says so, with a re-subscribe button. */
  'GET /unsubscribe/{token}': async ({ pathParameters }) => {
    const token = tokenOf(pathParameters);
    return (await unsubscribe(token)) === 'done' ? unsubscribedPage(token) : invalidLinkPage();
  },

  /** RFC 8058 one-click: whatever the body, 200 once unsubscribed. */
  'POST /unsubscribe/{token}': async ({ pathParameters }) => {
    const done = (await unsubscribe(tokenOf(pathParameters))) === 'done';
    return { statusCode: done ? 200 : 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: done ? 'Unsubscribed\n' : 'This unsubscribe link is not valid\n' };
  },

  'POST /unsubscribe/{token}/resubscribe': async ({ pathParameters }) =>
    (await resubscribe(tokenOf(pathParameters))) === 'done' ? resubscribedPage() : invalidLinkPage(),
});
