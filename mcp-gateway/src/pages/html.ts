/**
 * Plain server-rendered HTML: escaping, one layout, and the headers every page gets
 * (not frameable, not cached, a strict Content-Security-Policy without scripts).
 */
import type { Context } from 'koa';

export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A tagged template whose interpolations are escaped unless wrapped in raw(). */
export class Raw {
  constructor(readonly html: string) {}
}
export const raw = (html: string) => new Raw(html);

export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const part = Array.isArray(v) ? v.map((x) => (x instanceof Raw ? x.html : esc(x))).join('') : v instanceof Raw ? v.html : esc(v);
    out += part + strings[i + 1]!;
  });
  return new Raw(out);
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1f24;line-height:1.45}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:1.6rem}
nav{font-size:.9rem;margin-bottom:1rem;color:#555}nav a{margin-right:1rem}
label{display:block;margin:.6rem 0 .2rem;font-weight:600}
input[type=email],input[type=password],input[type=text]{width:100%;max-width:22rem;padding:.45rem;font-size:1rem;border:1px solid #888;border-radius:4px}
button{padding:.5rem 1.1rem;font-size:1rem;border-radius:4px;border:1px solid #245;background:#2a5db0;color:#fff;cursor:pointer;margin-right:.5rem}
button.secondary{background:#fff;color:#245}button.danger{background:#b3261e;border-color:#7a1a14}
.notice{padding:.8rem 1rem;border-radius:6px;margin:1rem 0;border:1px solid}
.ok{background:#e8f5e9;border-color:#4caf50}.warn{background:#fff4e5;border-color:#f0a030}.error{background:#fdecea;border-color:#d32f2f}
.danger-box{background:#fdecea;border:2px solid #b3261e;padding:1rem;border-radius:6px;margin:1rem 0;font-weight:600}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
fieldset{border:1px solid #ccc;border-radius:6px;margin:.6rem 0;padding:.4rem .8rem}legend{font-weight:600}
fieldset label{display:inline-block;font-weight:normal;margin-right:1.2rem}
code{background:#f3f3f3;padding:0 .2rem;border-radius:3px;word-break:break-all}
`;

export interface PageOptions {
  title: string;
  /** signed-in person: shows the navigation */
  user?: { name: string; email: string };
  csrf?: string;
}

export function layout(opts: PageOptions, body: Raw): string {
  const nav = opts.user
    ? html`<nav aria-label="Main"><a href="/account/ai-connections">My Profile → AI connections</a><a href="/management/ai-connections">System → Management → AI connections</a>
<form method="post" action="/signout" style="display:inline"><input type="hidden" name="csrf" value="${opts.csrf ?? ''}"><button type="submit" class="secondary">Sign out ${opts.user.email}</button></form></nav>`
    : raw('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(opts.title)}</title><style>${STYLE}</style></head>
<body>${nav.html}<main><h1>${esc(opts.title)}</h1>
${body.html}</main></body></html>`;
}

/** Security headers for every HTML page. */
export function pageHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'");
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Content-Type-Options', 'nosniff');
}

export function sendPage(ctx: Context, status: number, opts: PageOptions, body: Raw): void {
  pageHeaders(ctx);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = layout(opts, body);
}

export function errorPage(ctx: Context, status: number, title: string, message: string, user?: PageOptions['user'], csrf?: string): void {
  sendPage(ctx, status, { title, user, csrf }, html`<div class="notice error" role="alert"><p>${message}</p></div>`);
}
