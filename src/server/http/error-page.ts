const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A self-contained page for errors that happen before the web app can render. */
export function errorPage(status: number, title: string, detail: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)} · Agora</title><style>body{margin:0;min-height:100vh;display:grid;place-items:center;font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a}
main{text-align:center;padding:24px}h1{font-size:28px;margin:0 0 8px}p{color:#475569}a{color:#4338ca}</style></head>
<body><main><p>${status === 200 ? '' : escape(String(status))}</p><h1>${escape(title)}</h1><p>${escape(detail)}</p><p><a href="/">Back to Agora</a></p></main></body></html>`;
}
