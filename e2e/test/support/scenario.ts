/**
 * Shared steps of the end-to-end scenarios: a demo company per test, recording fetch, the
 * accounting round trip through MCP tools, and the REST checks with an API key.
 */
import { randomBytes } from 'node:crypto';
import { assertAnswerMatchesContract } from '../../../ledger-service/test/support/answerContract.ts';
import type { Stack } from './processes.ts';
import type { DemoInfo } from '../../../ledger-service/src/demo.ts';

/** What `ledger demo --json` prints (docs/operations.md). */
export type DemoCompany = DemoInfo;

export async function createDemo(stack: Stack): Promise<DemoCompany> {
  // a unique dataset: test files run in parallel against one database
  const dataset = `e2e-${randomBytes(5).toString('hex')}`;
  const out = await stack.ledgerCli(['demo', '--dataset', dataset, '--json']);
  return JSON.parse(out) as DemoCompany;
}

export function person(demo: DemoCompany) {
  return { email: demo.user.email, password: demo.user.password, totpSecret: demo.user.totp_secret };
}

/** A fetch that records method, URL and status of every request the MCP client makes. */
export function recordingFetch() {
  const log: { method: string; url: string; status: number }[] = [];
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    log.push({ method: init?.method ?? (input instanceof Request ? input.method : 'GET'), url, status: res.status });
    return res;
  };
  return { log, fetchFn };
}

/**
 * GET/POST with the company's API key over REST, through the public origin; every answer is checked against its
 * contract.
 */
export function rest(demo: DemoCompany) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${demo.base_url}${path}`, {
      method,
      headers: { 'X-API-Key': demo.api_key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    assertAnswerMatchesContract({
      method,
      url: res.url,
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: parsed,
    });
    return { status: res.status, body: parsed as any };
  };
}

export interface ToolResultLike {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: unknown[];
}

export type CallTool = (name: string, args: Record<string, unknown>) => Promise<ToolResultLike>;

/** One content of a resources/read answer, as both SDKs give it. */
export interface ResourceContentsLike {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export type ReadResource = (uri: string) => Promise<ResourceContentsLike[]>;

export interface BillFlowResult {
  vendorId: number;
  billId: number;
  documentNumber: string;
}

function structured(name: string, r: ToolResultLike): Record<string, any> {
  if (r.isError || !r.structuredContent) throw new Error(`${name} failed: ${JSON.stringify(r)}`);
  return r.structuredContent;
}

/** create_vendor → create_bill (draft) → approve_bill, with accounts and taxes read through tools. */
export async function billFlow(callTool: CallTool, label: string): Promise<BillFlowResult> {
  const vendor = structured(
    'create_vendor',
    await callTool('create_vendor', { name: `${label} Supplies AG`, city: 'Bern', country: 'CH' }),
  );
  const accounts = structured('get_chart_of_accounts', await callTool('get_chart_of_accounts', {})).accounts as any[];
  const taxes = structured('list_tax_codes', await callTool('list_tax_codes', {})).taxes as any[];
  const expense = accounts.find((a) =>
    String(a.link ?? '')
      .split(':')
      .includes('AP_amount'),
  );
  if (!expense) throw new Error('no AP_amount account in the chart');
  const today = new Date().toISOString().slice(0, 10);
  const tax = taxes.find(
    (x) => Number(x.rate) > 0 && x.valid_from <= today && (x.valid_to === null || x.valid_to >= today),
  );
  const documentNumber = `${label}-${Date.now()}`;
  const bill = {
    vendor_id: vendor.id,
    documentNumber,
    invDate: today,
    description: `${label} office supplies`,
    lines: [
      {
        account: String(expense.accno),
        amount: 100,
        description: 'Paper',
        ...(tax ? { taxAccount: String(tax.accno) } : {}),
      },
    ],
  };
  const created = structured('create_bill', await callTool('create_bill', bill));
  const approved = await callTool('approve_bill', { id: created.id, ...bill });
  structured('approve_bill', approved);
  return { vendorId: vendor.id, billId: created.id, documentNumber };
}

export interface InvoiceFlowResult {
  customerId: number;
  customerEmail: string;
  invoiceId: number;
  /** the text beside create_invoice's structured content */
  createdText: string;
  /** update_invoice's answer when the draft was approved (posted) */
  approved: Record<string, any>;
  /** the PDF resource get_invoice_pdf links, as resources/read gave it */
  pdf: { uri: string; mimeType: string; bytes: Buffer };
  /** what email_invoice answered */
  mailed: Record<string, any>;
  /** create_invoice with lines: the AR transaction, create_invoice's text and get_invoice's read */
  arTransaction: { id: number; text: string; read: Record<string, any> };
}

/**
 * create_customer (with an e-mail address) → create_invoice (two items, posted) →
 * get_invoice_pdf → email_invoice (to the customer's address), the revenue account and tax read through tools.
 */
export async function invoiceFlow(
  callTool: CallTool,
  readResource: ReadResource,
  label: string,
): Promise<InvoiceFlowResult> {
  const customerEmail = `accounts@${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-customer.example`;
  const customer = structured(
    'create_customer',
    await callTool('create_customer', {
      name: `${label} Kunde AG`,
      address1: 'Bundesplatz',
      street: '3',
      zipcode: '3005',
      city: 'Bern',
      country: 'CH',
      email: customerEmail,
    }),
  );
  const accounts = structured('get_chart_of_accounts', await callTool('get_chart_of_accounts', {})).accounts as any[];
  const taxes = structured('list_tax_codes', await callTool('list_tax_codes', {})).taxes as any[];
  const income = accounts.find((a) =>
    String(a.link ?? '')
      .split(':')
      .includes('AR_amount'),
  );
  if (!income) throw new Error('no AR_amount account in the chart');
  const today = new Date().toISOString().slice(0, 10);
  // a sales tax: its account is linked AR_tax
  const salesTaxAccounts = new Set(
    accounts
      .filter((a) =>
        String(a.link ?? '')
          .split(':')
          .includes('AR_tax'),
      )
      .map((a) => String(a.accno)),
  );
  const tax = taxes.find(
    (x) =>
      salesTaxAccounts.has(String(x.accno)) &&
      Number(x.rate) > 0 &&
      x.valid_from <= today &&
      (x.valid_to === null || x.valid_to >= today),
  );
  const taxAccount = tax ? { taxAccount: String(tax.accno) } : {};
  const invoice = {
    customer_id: customer.id,
    invDate: today,
    notes: `${label}: thank you for your order`,
    items: [
      { description: 'Consulting', quantity: 3, unit: 'h', price: 150, account: String(income.accno), ...taxAccount },
      { description: 'Travel flat rate', quantity: 1, price: 80.5, account: String(income.accno), ...taxAccount },
    ],
  };
  // a draft for review, then approved: the complete invoice again with pending "0" posts it
  const created = await callTool('create_invoice', invoice);
  const invoiceId = structured('create_invoice', created).id as number;
  const createdText = (created.content?.[0] as { text?: string } | undefined)?.text ?? '';
  const approved = structured(
    'update_invoice',
    await callTool('update_invoice', { id: invoiceId, ...invoice, pending: '0' }),
  );

  // get_invoice_pdf links the PDF resource; the client reads it when it wants the bytes
  const pdfResult = await callTool('get_invoice_pdf', { id: invoiceId });
  if (pdfResult.isError) throw new Error(`get_invoice_pdf failed: ${JSON.stringify(pdfResult.content)}`);
  const link = (pdfResult.content ?? []).find((c) => (c as { type?: string }).type === 'resource_link') as
    | { uri: string; mimeType: string }
    | undefined;
  if (!link) throw new Error(`get_invoice_pdf returned no resource link: ${JSON.stringify(pdfResult.content)}`);
  const [content] = await readResource(link.uri);
  if (!content?.blob) throw new Error(`the PDF resource has no bytes: ${JSON.stringify(content)}`);
  const pdf = { uri: link.uri, mimeType: content.mimeType ?? '', bytes: Buffer.from(content.blob, 'base64') };

  const mailed = structured('email_invoice', await callTool('email_invoice', { id: invoiceId }));

  // create_invoice with lines instead of items: an AR transaction, posted
  const arCreated = await callTool('create_invoice', {
    customer_id: customer.id,
    invDate: today,
    pending: '0',
    description: `${label}: deposit`,
    lines: [{ account: String(income.accno), amount: 200, description: 'Deposit' }],
  });
  const arId = structured('create_invoice', arCreated).id as number;
  const arTransaction = {
    id: arId,
    text: (arCreated.content?.[0] as { text?: string } | undefined)?.text ?? '',
    read: structured('get_invoice', await callTool('get_invoice', { id: arId })),
  };
  return { customerId: customer.id, customerEmail, invoiceId, createdText, approved, pdf, mailed, arTransaction };
}
