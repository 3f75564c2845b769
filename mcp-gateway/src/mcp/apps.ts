/**
 * In-chat review (MCP Apps, extension `io.modelcontextprotocol/ui`, docs/mcp.md "Apps"): two
 * views a host that supports MCP Apps renders in a sandboxed iframe beside a tool's result.
 *
 *   ui://ledger/review-document   a bill or invoice: lines, tax, totals, attachments;
 *                                 "Approve" (approve_bill) and "Keep as draft" on a draft bill
 *   ui://ledger/report            trial balance or VAT report; an account row drills down
 *                                 into its ledger lines (list_ledger_lines)
 *
 * The tools that answer what a view shows name it in `_meta.ui.resourceUri`; a host without
 * MCP Apps ignores that and shows the same result as text and structuredContent.
 *
 * Each view is one self-contained HTML document (inline style and script, no external
 * load), declared with the strictest CSP metadata (no connect, resource, frame or base
 * domains): everything it shows arrives through the host bridge — JSON-RPC over
 * postMessage: `ui/initialize` → `ui/notifications/initialized`, then the host's
 * `ui/notifications/tool-input` and `ui/notifications/tool-result`; the view's buttons send
 * `tools/call` (and `resources/read` for an image attachment) to the host, which forwards
 * them to this server, where they pass the same scope checks and confirmation as any call.
 */
import type { ReadResourceResult } from '@modelcontextprotocol/server';
import { scopeSatisfied, type Scope } from '@ledger/shared';

export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
export const REVIEW_APP_URI = 'ui://ledger/review-document';
export const REPORT_APP_URI = 'ui://ledger/report';

/** The view each tool's result is shown in. */
export const TOOL_APPS: Readonly<Record<string, string>> = {
  get_bill: REVIEW_APP_URI,
  get_invoice: REVIEW_APP_URI,
  trial_balance: REPORT_APP_URI,
  vat_report: REPORT_APP_URI,
};

/** The bridge both views share: requests with ids, notifications, the handshake. */
const BRIDGE = `
const pending = new Map(); let nextId = 1; const handlers = {};
function request(method, params) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    window.parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
  });
}
function notify(method, params) { window.parent.postMessage({ jsonrpc: '2.0', method, params }, '*'); }
window.addEventListener('message', (event) => {
  const m = event.data;
  if (!m || m.jsonrpc !== '2.0') return;
  if (m.id !== undefined && !m.method && pending.has(m.id)) {
    const p = pending.get(m.id); pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error.message || 'error')); else p.resolve(m.result);
  } else if (m.method && handlers[m.method]) handlers[m.method](m.params || {});
});
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c === undefined || c === null ? '' : c);
  return e;
}
function amount(v) { return typeof v === 'number' ? v.toFixed(2) : (v === undefined || v === null ? '' : String(v)); }
function say(text) { document.getElementById('status').textContent = text; }
function textOf(result) {
  return ((result && result.content) || []).filter((c) => c.type === 'text').map((c) => c.text)[0] || '';
}
async function start(name) {
  await request('ui/initialize', { appInfo: { name, version: '1.0.0' }, appCapabilities: {},
    protocolVersion: '2026-01-26' });
  notify('ui/notifications/initialized', {});
  new ResizeObserver(() => notify('ui/notifications/size-changed', { width: document.body.scrollWidth,
    height: document.body.scrollHeight })).observe(document.body);
}
`;

const STYLE = `
:root { color-scheme: light dark; font-family: var(--font-sans, system-ui, sans-serif); font-size: 14px; }
body { margin: 0; padding: 12px; color: var(--color-text-primary, CanvasText);
  background: var(--color-background-primary, Canvas); }
h1 { font-size: 16px; margin: 0 0 4px; } .muted { opacity: .7; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; } th, td { padding: 4px 6px;
  border-bottom: 1px solid color-mix(in srgb, currentColor 15%, transparent); text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; } tr.total td { font-weight: 600; }
button { font: inherit; padding: 6px 12px; margin-right: 8px; border-radius: 6px; border: 1px solid currentColor;
  background: none; color: inherit; cursor: pointer; }
button.primary { background: #1a7f37; color: #fff; border-color: #1a7f37; } button:disabled { opacity: .5;
  cursor: default; }
tr.drill { cursor: pointer; } tr.drill:hover { background: color-mix(in srgb, currentColor 8%, transparent); }
img.preview { max-width: 100%; max-height: 240px; display: block; margin: 4px 0; }
`;

function page(title: string, body: string, script: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${STYLE}</style></head>
<body>${body}<script>${BRIDGE}${script}</script></body></html>`;
}

/** The review card of one bill or invoice (get_bill / get_invoice structuredContent). */
const REVIEW_HTML = page(
  'Review document',
  `<div id="doc"><p class="muted">Waiting for the document…</p></div><p id="status" role="status"></p>`,
  `
let doc; let args = {};
handlers['ui/notifications/tool-input'] = (p) => { args = p.arguments || {}; };
handlers['ui/notifications/tool-result'] = (result) => {
  if (result && result.structuredContent) show(result.structuredContent);
};
/** The read shape of a bill as approve_bill's input (the complete bill, as for create_bill). */
function approveInput(d) {
  const input = { id: d.id, vendor_id: d.vendor_id, invDate: d.invDate, curr: d.currency, exchangerate: d.exchangerate,
    taxincluded: d.taxincluded, recordAccount: d.recordAccount,
    lines: d.lines.map((l) => { const x = { account: l.account, amount: l.amount };
      if (l.description) x.description = l.description; if (l.taxAccount) x.taxAccount = l.taxAccount; return x; }) };
  for (const k of ['documentNumber', 'invNumber', 'dueDate', 'description']) if (d[k]) input[k] = d[k];
  return input;
}
function show(d) {
  doc = d;
  const root = document.getElementById('doc'); root.replaceChildren();
  const what = d.vc === 'vendor' ? 'Bill' : 'Invoice';
  root.append(el('h1', {},
    what + ' ' + (d.documentNumber || d.invNumber || d.invnumber || d.id) + ' — ' + (d.name || '')));
  root.append(el('p', { class: 'muted' },
    'Dated ' + (d.invDate || d.transdate || '') + (d.dueDate ? ', due ' + d.dueDate : '') + ' · ' +
      (d.status || '') + ' · ' + (d.currency || '')));
  const rows = (d.lines || d.items || []).map((l) => el('tr', {},
    el('td', {}, l.description || l.account || ''), el('td', {}, l.account || ''),
    el('td', { class: 'n' }, amount(l.net !== undefined ? l.net : l.amount)), el('td', { class: 'n' },
      amount(l.taxAmount)),
    el('td', { class: 'n' }, amount(l.gross !== undefined ? l.gross : l.amount))));
  const table = el('table', { 'aria-label': 'Lines' },
    el('thead', {}, el('tr', {}, el('th', {}, 'Line'), el('th', {}, 'Account'), el('th', { class: 'n' }, 'Net'),
      el('th', { class: 'n' }, 'Tax'), el('th', { class: 'n' }, 'Gross'))),
    el('tbody', {}, ...rows));
  const totals = el('table', { 'aria-label': 'Totals' }, el('tbody', {},
    ...(d.taxes || []).map((t) => el('tr', {}, el('td', {},
      'Tax ' + (t.taxAccount || '') + ' ' + (t.rate !== undefined ? (t.rate * 100).toFixed(1) + '%' : '')), el('td',
      { class: 'n' }, amount(t.amount)))),
    el('tr', {}, el('td', {}, 'Net'), el('td', { class: 'n', id: 'net' }, amount(d.netAmount))),
    el('tr', {}, el('td', {}, 'Tax'), el('td', { class: 'n', id: 'tax' }, amount(d.taxAmount))),
    el('tr', { class: 'total' }, el('td', {}, 'Total ' + (d.currency || '')), el('td', { class: 'n', id: 'total' },
      amount(d.grossAmount)))));
  root.append(table, totals);
  const files = d.files || [];
  if (files.length) {
    const list = el('ul', { 'aria-label': 'Attachments' });
    for (const f of files) {
      const item = el('li', {},
        (f.name || 'file') + ' (' + (f.mediaType || '') + (f.size ? ', ' + f.size + ' bytes' : '') + ')');
      list.append(item);
      const ds = /\\/client\\/([^/]+)\\//.exec(f.url || '');
      if (ds && /^image\\//.test(f.mediaType || '')) {
        request('resources/read', { uri: 'ledger://' + ds[1] + '/documents/' + f.id }).then((r) => {
          const c = r && r.contents && r.contents[0];
          if (c && c.blob) item.append(el('img', { class: 'preview', alt: f.name || 'attachment',
            src: 'data:' + (c.mimeType || f.mediaType) + ';base64,' + c.blob }));
        }).catch(() => undefined);
      }
    }
    root.append(el('h2', { class: 'muted', style: 'font-size:14px' }, 'Attachments'), list);
  }
  if (d.vc === 'vendor' && d.status === 'draft') {
    const approve = el('button', { class: 'primary', id: 'approve' }, 'Approve');
    const keep = el('button', { id: 'keep' }, 'Keep as draft');
    approve.onclick = async () => {
      approve.disabled = keep.disabled = true; say('Approving…');
      try {
        const r = await request('tools/call', { name: 'approve_bill', arguments: approveInput(doc) });
        say(textOf(r));
        if (!r.isError && r.structuredContent && r.structuredContent.status) show(r.structuredContent);
          else approve.disabled = keep.disabled = false;
      } catch (e) { say('Not approved: ' + e.message); approve.disabled = keep.disabled = false; }
    };
    keep.onclick = async () => {
      approve.disabled = keep.disabled = true;
      const text = 'The person kept bill ' + (doc.documentNumber || doc.id) + ' as a draft.';
      say(text);
      request('ui/update-model-context', { content: [{ type: 'text', text }] }).catch(() => undefined);
    };
    root.append(el('p', {}, approve, keep));
  } else if (d.status === 'draft') {
    root.append(el('p', { class: 'muted' }, 'A draft: it waits in the app\\'s workstation.'));
  }
}
start('ledger-review-document');
`,
);

/** The report view: trial balance (accounts) or VAT report (codes), with drill-down. */
const REPORT_HTML = page(
  'Report',
  '<div id="report"><p class="muted">Waiting for the report…</p></div><div id="drill"></div>' +
    '<p id="status" role="status"></p>',
  `
let args = {};
handlers['ui/notifications/tool-input'] = (p) => { args = p.arguments || {}; };
handlers['ui/notifications/tool-result'] = (result) => {
  if (result && result.structuredContent) show(result.structuredContent);
};
async function drill(account, r) {
  const box = document.getElementById('drill'); box.replaceChildren(el('p', { class: 'muted' },
    'Loading ' + account + '…'));
  try {
    const res = await request('tools/call',
      { name: 'list_ledger_lines', arguments: { account, from: r.from, to: r.to } });
    const s = res.structuredContent || {};
    box.replaceChildren(el('h2', { style: 'font-size:14px' }, 'Account ' + account + ' ' + (s.description || '')),
      el('table', { 'aria-label': 'Ledger lines' }, el('thead', {}, el('tr', {}, el('th', {}, 'Date'), el('th', {},
        'Text'), el('th', { class: 'n' }, 'Debit'), el('th', { class: 'n' }, 'Credit'), el('th', { class: 'n' },
        'Balance'))),
        el('tbody', {}, ...(s.lines || []).map((l) => el('tr', {}, el('td', {}, l.date), el('td', {},
          l.description || (l.source && l.source.number) || ''),
          el('td', { class: 'n' }, amount(l.debit)), el('td', { class: 'n' }, amount(l.credit)), el('td',
            { class: 'n' }, amount(l.balance)))))));
    if (res.isError) say(textOf(res));
  } catch (e) { say(e.message); }
}
function show(r) {
  const root = document.getElementById('report'); root.replaceChildren();
  if (Array.isArray(r.accounts)) {
    root.append(el('h1', {}, 'Trial balance ' + r.from + ' – ' + r.to + ' (' + r.currency + ')'));
    const rows = r.accounts.map((a) => {
      const tr = el('tr', { class: 'drill', 'data-account': a.accno, tabindex: '0' }, el('td', {}, a.accno), el('td',
        {}, a.description),
        el('td', { class: 'n' }, amount(a.opening)), el('td', { class: 'n' }, amount(a.debit)), el('td',
          { class: 'n' }, amount(a.credit)), el('td', { class: 'n' }, amount(a.closing)));
      tr.onclick = () => drill(a.accno, r);
      return tr;
    });
    root.append(el('table', { 'aria-label': 'Trial balance' }, el('thead', {}, el('tr', {}, el('th', {}, 'Account'),
      el('th', {}, ''), el('th', { class: 'n' }, 'Opening'), el('th', { class: 'n' }, 'Debit'), el('th',
      { class: 'n' }, 'Credit'), el('th', { class: 'n' }, 'Closing'))), el('tbody', {}, ...rows)));
  } else if (Array.isArray(r.codes)) {
    root.append(el('h1', {}, 'VAT ' + r.from + ' – ' + r.to + ' (' + r.currency + ')'));
    const rows = r.codes.map((c) => {
      const tr = el('tr', { class: 'drill', 'data-account': c.account, tabindex: '0' }, el('td', {}, c.code), el('td',
        {}, c.description), el('td', {}, c.side),
        el('td', { class: 'n' }, amount(c.base)), el('td', { class: 'n' }, amount(c.tax)));
      tr.onclick = () => drill(c.account, r);
      return tr;
    });
    rows.push(el('tr', { class: 'total' }, el('td', {}, ''), el('td', {}, 'Net VAT due'), el('td', {}, ''), el('td',
      {}, ''), el('td', { class: 'n' }, amount(r.net_due))));
    root.append(el('table', { 'aria-label': 'VAT' }, el('thead', {}, el('tr', {}, el('th', {}, 'Code'), el('th', {},
      ''), el('th', {}, 'Side'), el('th', { class: 'n' }, 'Base'), el('th', { class: 'n' }, 'Tax'))), el('tbody', {},
      ...rows)));
  } else {
    root.append(el('pre', {}, JSON.stringify(r, null, 2)));
  }
}
start('ledger-report');
`,
);

const APPS: Readonly<Record<string, { name: string; title: string; description: string; html: string; scope: Scope }>> =
  {
    [REVIEW_APP_URI]: {
      scope: 'invoices:read',
      name: 'review-document',
      title: 'Review bill or invoice',
      description:
        'Lines, tax, totals and attachments of a bill or invoice; approve a draft bill or keep it as a draft.',
      html: REVIEW_HTML,
    },
    [REPORT_APP_URI]: {
      scope: 'accounting:read',
      name: 'report',
      title: 'Report',
      description: 'Trial balance or VAT report with drill-down into ledger lines.',
      html: REPORT_HTML,
    },
  };

/** No external origin of any kind: the strictest policy the extension can declare. */
const UI_META = {
  ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true },
};

/** The views, as resources/list shows them: those whose tools the granted scopes show. */
export function appResources(scopes: readonly string[]) {
  return Object.entries(APPS)
    .filter(([, app]) => scopeSatisfied(scopes, app.scope))
    .map(([uri, app]) => ({
      uri,
      name: app.name,
      title: app.title,
      description: app.description,
      mimeType: MCP_APP_MIME_TYPE,
      _meta: UI_META,
    }));
}

/** resources/read of a view, or undefined when `uri` names none. */
export function readAppResource(uri: string): ReadResourceResult | undefined {
  const app = APPS[uri];
  if (!app) return undefined;
  return { contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: app.html, _meta: UI_META }] };
}
