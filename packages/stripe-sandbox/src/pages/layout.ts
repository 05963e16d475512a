/**
 * HTML for the sandbox's pages: escaped templates, one stylesheet and scripts served as
 * files under /sandbox/assets (the pages run under a CSP without inline script).
 */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Tagged template: interpolations are escaped unless wrapped in raw(). */
export class Raw {
  constructor(readonly html: string) {}
  toString() {
    return this.html;
  }
}
export const raw = (html: string) => new Raw(html);

export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0];
  values.forEach((v, i) => {
    const piece = Array.isArray(v)
      ? v.map((x) => (x instanceof Raw ? x.html : esc(x))).join('')
      : v instanceof Raw
        ? v.html
        : v === null || v === undefined || v === false
          ? ''
          : esc(v);
    out += piece + strings[i + 1];
  });
  return new Raw(out);
}

export function page(opts: { title: string; body: Raw; scripts?: string[]; bodyClass?: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(opts.title)}</title>
<link rel="stylesheet" href="/sandbox/assets/sandbox.css">
${(opts.scripts ?? []).map((s) => `<script src="/sandbox/assets/${esc(s)}" defer></script>`).join('\n')}
</head>
<body class="${esc(opts.bodyClass ?? '')}">
${opts.body.html}
</body>
</html>`;
}

const SYMBOLS: Record<string, string> = { usd: '$', eur: '€', gbp: '£' };

/** "$12.00", "€12.00", "12.00 CHF" */
export function formatMoney(cents: number, currency: string): string {
  const c = currency.toLowerCase();
  const amount = (cents / 100).toFixed(2);
  return SYMBOLS[c] ? `${SYMBOLS[c]}${amount}` : `${amount} ${c.toUpperCase()}`;
}

export function formatDate(unix: number | null | undefined): string {
  if (!unix) return '—';
  return new Date(unix * 1000).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** The "Test mode" note shown on every sandbox page that takes input. */
export function testModeNote(): Raw {
  return html`<aside class="test-note" aria-labelledby="test-note-title">
    <p id="test-note-title"><strong>Test mode — payments sandbox.</strong> No real money moves. Use a test card:</p>
    <ul>
      <li><code>4242 4242 4242 4242</code> succeeds</li>
      <li><code>4000 0000 0000 0002</code> is declined</li>
      <li><code>4000 0000 0000 9995</code> is declined (insufficient funds)</li>
      <li><code>4000 0000 0000 0341</code> pays now, later charges fail</li>
    </ul>
    <p>Any future date (e.g. 12/34) and any 3-digit CVC.</p>
  </aside>`;
}

/** A page for a missing object or a bad form submission. */
export function errorPage(status: number, title: string, detail: string): string {
  const body = html`<main class="card narrow" aria-labelledby="error-title">
    <p class="muted">${status}</p>
    <h1 id="error-title">${title}</h1>
    <p>${detail}</p>
  </main>`;
  return page({ title, body });
}
