const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The server-rendered page of an unsubscribe link: it works without signing in, so it is
 * not a page of the web app (whose public paths are fixed by the spec). GET shows what the
 * link stops and a button (a form POST, so a mail scanner that follows links changes nothing);
 * the POST answers the done page.
 */
export function unsubscribePage(o: { title: string; detail: string; action?: { url: string; label: string }; status?: number }): string {
  const form = o.action
    ? `<form method="post" action="${escape(o.action.url)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escape(o.action.label)}</button></form>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(o.title)} · Agora</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:440px;margin:16px;padding:32px;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(15,23,42,.12);text-align:center}
.brand{font-size:22px;font-weight:700;color:#4338ca;margin:0 0 16px}h1{font-size:22px;margin:0 0 8px}p{color:#475569;line-height:1.5}
button{font:inherit;font-weight:600;background:#4338ca;color:#fff;border:0;border-radius:8px;padding:12px 20px;cursor:pointer;min-height:44px}
button:focus-visible,a:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}a{color:#4338ca}</style></head>
<body><main><p class="brand">Agora</p><h1>${escape(o.title)}</h1><p>${escape(o.detail)}</p>${form}
<p><a href="/user/settings#notifications">Notification settings</a> · <a href="/">Agora</a></p></main></body></html>`;
}
