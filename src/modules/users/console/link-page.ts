// The page a sign-in link opens: one button that posts to the page's own URL. Nothing runs on it
// (no script, and a policy that allows none); opening it uses nothing up, so a mail scanner that
// fetches every link leaves the link working. Same-origin referrers: with no-referrer Chromium
// sends `Origin: null` on the form's POST, which the service would refuse.
import { t, type Locale } from '../../../core/i18n.js';

export const LINK_PAGE_CSP = "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const LINK_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': LINK_PAGE_CSP,
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(locale: Locale, body: string): string {
  const dir = locale === 'fa' ? 'rtl' : 'ltr';
  return `<!doctype html>
<html lang="${locale}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(t(locale, 'console.page_title'))}</title></head>
<body><main><h1>${escapeHtml(t(locale, 'console.page_title'))}</h1>
${body}
</main></body>
</html>
`;
}

/** The page of a usable link: who it signs in, and the button. */
export function signInPage(locale: Locale, name: string): string {
  return page(
    locale,
    `<p>${escapeHtml(t(locale, 'console.page_prompt', { name }))}</p>
<form method="post"><button type="submit">${escapeHtml(t(locale, 'console.page_button'))}</button></form>`,
  );
}

/** The page of a link that no longer signs in, or of a sign-in refused. */
export function messagePage(locale: Locale, key: 'console.page_invalid' | 'console.page_cross_site'): string {
  return page(locale, `<p>${escapeHtml(t(locale, key))}</p>`);
}
