/**
 * The app's one stylesheet and its one small script, served from the gateway itself so the
 * pages' Content-Security-Policy needs neither 'unsafe-inline' nor another origin. The script
 * only enhances (copy buttons, an invoice form's totals as one types); every action works
 * without it as a plain form post.
 */
import Router from '@koa/router';

export const STYLESHEET = `
*,*::before,*::after{box-sizing:border-box}
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1b1f24;line-height:1.45;
background:#fff}
.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;background:#fff;padding:.4rem;z-index:2}
header.top{background:#17324d;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;
align-items:center}
header.top a{color:#fff}header.top .brand{font-weight:700;text-decoration:none;margin-right:auto}
header.top button{background:transparent;border-color:#fff;color:#fff;margin:0}
nav.app{background:#eef2f6;padding:.4rem 1rem;border-bottom:1px solid #cfd8e3}
nav.app ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem 1.1rem}
nav.app a{color:#123;display:inline-block;padding:.25rem 0}nav.app a[aria-current=page]{font-weight:700;
text-decoration-thickness:3px}
nav.app .group{font-size:.8rem;color:#3d4a57;text-transform:uppercase;letter-spacing:.03em;align-self:center}
main{max-width:72rem;margin:1rem auto;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:1.6rem}
a{color:#0b4f9c}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #f0a030;
outline-offset:2px}
/* a date input's focus sits in its day, month, year or calendar button: only :focus-within sees the last */
input[type=date]:focus,input[type=date]:focus-within{outline:3px solid #f0a030;outline-offset:2px}
label{display:block;margin:.6rem 0 .2rem;font-weight:600}
input[type=email],input[type=password],input[type=text],input[type=date],input[type=number],select{width:100%;
max-width:22rem;padding:.45rem;font-size:1rem;border:1px solid #6b7682;border-radius:4px;background:#fff}
button,.button{display:inline-block;padding:.5rem 1.1rem;font-size:1rem;border-radius:4px;border:1px solid #1d3f73;
background:#2a5db0;color:#fff;cursor:pointer;margin:.2rem .5rem .2rem 0;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#1d3f73}button.danger{background:#b3261e;border-color:#7a1a14}
form.inline{display:inline}
.notice{padding:.8rem 1rem;border-radius:6px;margin:1rem 0;border:1px solid}
.ok{background:#e8f5e9;border-color:#4caf50}.warn{background:#fff4e5;border-color:#f0a030}.error{background:#fdecea;
border-color:#d32f2f}
.danger-box{background:#fdecea;border:2px solid #b3261e;padding:1rem;border-radius:6px;margin:1rem 0;font-weight:600}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.4rem .5rem;
border-bottom:1px solid #ddd;vertical-align:top}
caption{text-align:left;font-weight:600;padding:.3rem 0}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
fieldset{border:1px solid #ccc;border-radius:6px;margin:.6rem 0;padding:.4rem .8rem}legend{font-weight:600}
fieldset label{display:inline-block;font-weight:normal;margin-right:1.2rem}
fieldset.row{display:grid;grid-template-columns:minmax(0,1fr);gap:.2rem .8rem;align-items:center}
fieldset.row label{margin:.2rem 0 0}
fieldset.row .check{grid-column:1/-1}
@media (min-width:48rem){fieldset.row{grid-template-columns:max-content minmax(0,18rem) max-content minmax(0,18rem)}}
code{background:#f3f3f3;padding:0 .2rem;border-radius:3px;word-break:break-all}
.secret{font-size:1.05rem;padding:.4rem;background:#fff8d6;border:1px dashed #8a6d00;display:inline-block}
.hint{font-size:.9rem;color:#4a5560;max-width:40rem}
.field-error{color:#b3261e;font-weight:600;margin:.2rem 0 .4rem;font-size:.95rem}
input[aria-invalid=true],select[aria-invalid=true]{border:2px solid #b3261e}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:1rem;list-style:none;padding:0}
.cards li{border:1px solid #cfd8e3;border-radius:6px;padding:.8rem}
.side-by-side{display:grid;grid-template-columns:1fr;gap:1rem}
@media (min-width:60rem){.side-by-side{grid-template-columns:1fr 1fr}}
#totals-preview{border:1px solid #cfd8e3;border-radius:6px;padding:.4rem 1rem;margin:.8rem 0;background:#f6f8fa;
max-width:40rem}#totals-preview:focus{outline:3px solid #f0a030;outline-offset:2px}
#totals-preview h3{font-size:1rem;margin:.4rem 0}#totals-preview dl{display:grid;grid-template-columns:1fr auto;
gap:.2rem 1rem;margin:.4rem 0}#totals-preview dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}
#preview-gross,#totals-preview dt:nth-last-of-type(1){font-weight:700}
.preview{width:100%;min-height:30rem;border:1px solid #cfd8e3}img.preview{min-height:0;height:auto;width:auto;
max-width:100%}
`;

export const SCRIPT = `
// Copy buttons: present only when scripts run (progressive enhancement)
for (const button of document.querySelectorAll('[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.getAttribute('data-copy'));
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
    }
  });
}

// Totals as one types on the invoice and bill forms: the form's own "Preview totals" sent in the
// background a moment after the last keystroke (the ledger computes them, nothing is written); its
// answer's totals are put in their place (an aria-live region). A form that cannot be computed yet
// (a row not complete) shows none. Without script the button does the same with a page load.
const documentForm = document.getElementById('new-document');
const live = document.getElementById('totals-live');
if (documentForm && live && window.fetch && window.DOMParser) {
  let timer;
  let asked = 0;
  const update = async () => {
    const mine = ++asked;
    const body = new URLSearchParams(new FormData(documentForm));
    body.set('action', 'preview');
    body.delete('post');
    try {
      // the form's buttons are named "action", which hides the form's own .action property
      const target = documentForm.getAttribute('action');
      const res = await fetch(target, { method: 'POST', body, credentials: 'same-origin' });
      const html = await res.text();
      if (mine !== asked) return;
      const fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('totals-preview');
      if (fresh) {
        fresh.removeAttribute('autofocus');
        fresh.removeAttribute('tabindex');
        live.replaceChildren(document.adoptNode(fresh));
      } else live.replaceChildren();
    } catch {
      // the button still works
    }
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(update, 600);
  };
  documentForm.addEventListener('input', later);
  documentForm.addEventListener('change', later);
}
`;

/** The app's icon: a ledger's page in the app's blue, drawn as SVG so it needs no binary file. */
export const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#17324d"/>' +
  '<rect x="8" y="6" width="16" height="20" rx="2" fill="#fff"/><path d="M11 11h10M11 15h10M11 19h6" ' +
  'stroke="#2a5db0" stroke-width="2"/></svg>';

export function assetsRouter(): Router {
  const router = new Router();
  router.get('/assets/favicon.svg', (ctx) => {
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = FAVICON;
  });
  // browsers ask for /favicon.ico on their own: the same icon
  router.get('/favicon.ico', (ctx) => {
    ctx.status = 301;
    ctx.redirect('/assets/favicon.svg');
  });
  router.get('/assets/app.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = STYLESHEET;
  });
  router.get('/assets/app.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = SCRIPT;
  });
  return router;
}
