/**
 * The unsubscribe pages: small, self-contained HTML (no script, inline style only), served with a
 * Content-Security-Policy that allows just that style and a form posting back to this origin.
 * Nothing from the request is shown; the token goes into form actions URL-encoded (no quote or
 * angle bracket survives encodeURIComponent), and the relative actions resolve against the link's
 * own URL (/unsubscribe/<token>), wherever the API is mounted.
 */
export const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': PAGE_POLICY, 'Cache-Control': 'no-store' };

const layout = (title: string, content: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}button{font-size:1rem;padding:.5rem 1rem;cursor:pointer}button:focus-visible{outline:3px solid #1a56db;outline-offset:2px}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;

/**
 * GET /unsubscribe/{token}: asks, changes nothing (link scanners in mail gateways prefetch links).
 * The one button, focused, posts to the link itself (POST /unsubscribe/{token}).
 */
export const confirmPage = (token: string) => ({
  statusCode: 200,
  headers,
  body: layout(
    'Unsubscribe',
    `<h1 id="status">Unsubscribe from these emails?</h1>
<p>Press the button to stop receiving them. You can subscribe again afterwards.</p>
<form method="post" action="${encodeURIComponent(token)}">
<button type="submit" id="unsubscribe" autofocus>Unsubscribe</button>
</form>`,
  ),
});

/** After the page's POST /unsubscribe/{token}: it worked; the form re-subscribes (relative action: this page's URL + /resubscribe). */
export const unsubscribedPage = (token: string) => ({
  statusCode: 200,
  headers,
  body: layout(
    'Unsubscribed',
    `<h1 id="status">You have been unsubscribed.</h1>
<p>You will no longer receive these emails.</p>
<form method="post" action="${encodeURIComponent(token)}/resubscribe">
<button type="submit" id="resubscribe">Re-subscribe</button>
</form>`,
  ),
});

export const resubscribedPage = () => ({
  statusCode: 200,
  headers,
  body: layout('Subscribed again', '<h1 id="status">You are subscribed again.</h1>\n<p>Welcome back.</p>'),
});

/** A tampered or foreign token: plain 400, never a 500. */
export const invalidLinkPage = () => ({
  statusCode: 400,
  headers,
  body: layout('Invalid link', '<h1 id="status">This unsubscribe link is not valid.</h1>\n<p>Please use the link from the email you received.</p>'),
});
