import { darkModeHtml, previewForScheme } from '../../../../shared/templates/dark-mode';

describe('darkModeHtml', () => {
  it('turns the email\'s dark media conditions on and its light ones off', () => {
    // Prepare
    const html = '<html><head><style>@media (prefers-color-scheme: dark) { body { background: #000 } } @media ( Prefers-Color-Scheme : light ) { p { color: red } }</style></head><body><p>Hi</p></body></html>';

    // Act
    const dark = darkModeHtml(html);

    // Assess
    expect(dark).toContain('@media (width >= 0px) { body { background: #000 } }');
    expect(dark).toContain('@media (width < 0px) { p { color: red } }');
    expect(dark).not.toMatch(/prefers-color-scheme/i);
  });

  it('gives an email without a colour scheme the dark one, in its head or before a fragment', () => {
    // Act
    const document = darkModeHtml('<html><head><title>x</title></head><body>Hi</body></html>');
    const fragment = darkModeHtml('<p>Hi</p>');

    // Assess
    expect(document).toBe('<html><head><meta name="color-scheme" content="dark"><title>x</title></head><body>Hi</body></html>');
    expect(fragment).toBe('<meta name="color-scheme" content="dark"><p>Hi</p>');
  });

  it('sets an email that offers dark to dark, and leaves one that declares itself light only as it is', () => {
    // Act
    const offers = darkModeHtml('<head><meta name="color-scheme" content="light dark"></head><p>Hi</p>');
    const lightOnly = darkModeHtml('<head><meta name="color-scheme" content="light"></head><p>Hi</p>');

    // Assess
    expect(offers).toBe('<head><meta name="color-scheme" content="dark"></head><p>Hi</p>');
    expect(lightOnly).toBe('<head><meta name="color-scheme" content="light"></head><p>Hi</p>');
  });
});

describe('previewForScheme', () => {
  it('serves the dark rendering for scheme=dark only, the email as rendered otherwise', () => {
    // Prepare
    const html = '<p>Hi</p>';

    // Act
    const dark = previewForScheme(html, 'dark');
    const light = [previewForScheme(html, 'light'), previewForScheme(html, undefined), previewForScheme(html, 'DARK<script>')];

    // Assess
    expect(dark).toBe(darkModeHtml(html));
    expect(light).toEqual([html, html, html]);
  });
});
