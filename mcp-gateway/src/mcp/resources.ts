/**
 * MCP resources: what an assistant reads rather than calls — stored documents, invoice PDFs,
 * the chart of accounts, the tax codes and the four reports (JSON, or CSV with `.csv`) —
 * under `ledger://{dataset}/…` URIs:
 *
 *   ledger://{dataset}/documents/{id}                 the document's bytes
 *   ledger://{dataset}/invoices/{vc}/{id}/pdf         an invoice's PDF
 *   ledger://{dataset}/chart/accounts                 the chart of accounts (JSON)
 *   ledger://{dataset}/taxes                          the tax codes (JSON)
 *   ledger://{dataset}/reports/{report}[.csv]?from=&to=   trial_balance, income_statement, vat;
 *                                                     balance_sheet takes ?date=
 *
 * Each URI is one ledger REST read (its contract, as for a tool) made with the connection's
 * service credential, so the ledger applies the person's role as for any call. A resource
 * is listed and readable exactly when a tool on its contract would be: its scope granted
 * (steps.ts refuses a read outside the grant with the same 403 step-up challenge as a tool
 * call) and, for the lists, the person's role permitting its endpoint. A URI of another
 * company is not this server's resource: refused as not found.
 *
 * Tool results link these URIs (`resource_link`, tools/result.ts) instead of embedding the
 * bytes: the assistant reads a PDF or document only when it needs it.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplateInfo,
} from '@modelcontextprotocol/server';
import {
  contracts,
  endpointKey,
  scopeSatisfied,
  type Area,
  type Contract,
  type Scope,
  type Side,
} from '@ledger/shared';
import { areaIcons } from './icons.ts';
import { isRecord } from './tools/isRecord.ts';
import { ledgerError } from './tools/result.ts';
import type { LedgerResponse, McpConnection, McpDeps } from './types.ts';

/** The URI of a resource of `dataset`, `path` relative to it (`chart/accounts`). */
export function resourceUri(dataset: string, path: string): string {
  return `ledger://${encodeURIComponent(dataset)}/${path}`;
}

const REPORTS = {
  trial_balance: contracts.trialBalance,
  income_statement: contracts.incomeStatement,
  balance_sheet: contracts.balanceSheet,
  vat: contracts.vatReport,
} as const satisfies Record<string, Contract>;
type ReportName = keyof typeof REPORTS;

const REPORT_TITLES: Readonly<Record<ReportName, string>> = {
  trial_balance: 'Trial balance',
  income_statement: 'Income statement',
  balance_sheet: 'Balance sheet',
  vat: 'VAT report',
};

/** A resource URI understood: the ledger read behind it and what it needs. */
export interface ResolvedResource {
  uri: string;
  dataset: string;
  contract: Contract;
  side?: Side;
  /** the ledger path relative to `{base_url}`, with its query */
  path: string;
  /** the media type asked of the ledger (Accept), when not JSON */
  accept?: string;
  /** the media type of the content, when the URI fixes it */
  mimeType?: string;
}

/** The scope a resource needs, as a tool on its contract would. */
export function resourceScope(r: Pick<ResolvedResource, 'contract'>): Scope {
  return r.contract.scope as Scope;
}

function areaOf(contract: Contract): Area {
  return String(contract.scope).split(':')[0] as Area;
}

/** The query of a report URI: only the parameters its contract takes (`from`/`to`, or `date`). */
function reportQuery(contract: Contract, params: URLSearchParams, uri: string): string {
  const query = contract.query;
  const allowed = isRecord(query) && isRecord(query.properties) ? Object.keys(query.properties) : [];
  const out = new URLSearchParams();
  for (const [key, value] of params) {
    if (!allowed.includes(key))
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${uri}: this report takes ${allowed.join(', ')}, not ${key}`,
      );
    out.append(key, value);
  }
  const s = out.toString();
  return s ? `?${s}` : '';
}

/**
 * What a `ledger://` URI names, or undefined when it names nothing this server has. The
 * dataset is the URI's own: the caller compares it with the connection's.
 */
export function resolveResource(uri: string): ResolvedResource | undefined {
  const m = /^ledger:\/\/([^/?#]+)\/([^?#]*)(?:\?([^#]*))?$/.exec(uri);
  if (!m) return undefined;
  let dataset: string;
  try {
    dataset = decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
  const path = m[2]!;
  const params = new URLSearchParams(m[3] ?? '');
  const base = { uri, dataset };
  const plain = params.size === 0;
  if (path === 'chart/accounts' && plain)
    return {
      ...base,
      contract: contracts.listChartAccounts,
      path: '/system/chart/accounts',
      mimeType: 'application/json',
    };
  if (path === 'taxes' && plain)
    return { ...base, contract: contracts.listTaxes, path: '/system/taxes', mimeType: 'application/json' };
  const report = /^reports\/([a-z_]+?)(\.csv)?$/.exec(path);
  if (report && Object.hasOwn(REPORTS, report[1]!)) {
    const contract = REPORTS[report[1] as ReportName];
    const csv = report[2] !== undefined;
    return {
      ...base,
      contract,
      path: `${contract.path}${reportQuery(contract, params, uri)}`,
      ...(csv ? { accept: 'text/csv', mimeType: 'text/csv' } : { mimeType: 'application/json' }),
    };
  }
  const document = /^documents\/([1-9]\d{0,15})$/.exec(path);
  if (document && plain)
    return {
      ...base,
      contract: contracts.getDocumentContent,
      path: `/documents/${document[1]}/content`,
      accept: '*/*',
    };
  const pdf = /^invoices\/(vendor|customer)\/([1-9]\d{0,15})\/pdf$/.exec(path);
  if (pdf && plain) {
    const side = pdf[1] as Side;
    return {
      ...base,
      contract: contracts.getInvoicePdf,
      side,
      path: `/arap/invoice/${side}/${pdf[2]}/pdf`,
      accept: 'application/pdf',
      mimeType: 'application/pdf',
    };
  }
  return undefined;
}

/** What serving resources needs of the endpoint. */
export type ResourceDeps = Pick<McpDeps, 'callLedger' | 'publicUrl'>;

/** The person's permitted endpoints (role ∩ scopes), when the ledger said; else only scopes filter. */
export type PermittedEndpoints = ReadonlySet<string> | undefined;

function usable(connection: McpConnection, permitted: PermittedEndpoints, contract: Contract, side?: Side): boolean {
  if (contract.scope === null || !scopeSatisfied(connection.scopes, contract.scope)) return false;
  return permitted === undefined || permitted.has(endpointKey(contract, side));
}

/** The resources every connection with the area has, before the documents. */
function fixedResources(deps: ResourceDeps, connection: McpConnection, permitted: PermittedEndpoints): Resource[] {
  const { dataset } = connection;
  const icons = (c: Contract) => areaIcons(deps.publicUrl, areaOf(c));
  const out: Resource[] = [];
  if (usable(connection, permitted, contracts.listChartAccounts)) {
    out.push({
      uri: resourceUri(dataset, 'chart/accounts'),
      name: 'chart-of-accounts',
      title: 'Chart of accounts',
      mimeType: 'application/json',
      icons: icons(contracts.listChartAccounts),
    });
  }
  if (usable(connection, permitted, contracts.listTaxes)) {
    out.push({
      uri: resourceUri(dataset, 'taxes'),
      name: 'tax-codes',
      title: 'Tax codes',
      mimeType: 'application/json',
      icons: icons(contracts.listTaxes),
    });
  }
  for (const [report, contract] of Object.entries(REPORTS) as [ReportName, Contract][]) {
    if (!usable(connection, permitted, contract)) continue;
    const title = REPORT_TITLES[report];
    const when = report === 'balance_sheet' ? 'today' : 'the year to date';
    out.push(
      {
        uri: resourceUri(dataset, `reports/${report}`),
        name: report,
        title,
        description: `${title}, ${when} (add ?from=&to=, or ?date= for the balance sheet)`,
        mimeType: 'application/json',
        icons: icons(contract),
      },
      {
        uri: resourceUri(dataset, `reports/${report}.csv`),
        name: `${report}.csv`,
        title: `${title} (CSV)`,
        mimeType: 'text/csv',
        icons: icons(contract),
      },
    );
  }
  return out;
}

/** Documents per resources/list page. */
export const DOCUMENTS_PER_PAGE = 100;

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ documents: offset })).toString('base64url');
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const offset = isRecord(value) ? value.documents : undefined;
    if (typeof offset === 'number' && Number.isSafeInteger(offset) && offset > 0) return offset;
  } catch {
    // answered below like any cursor this server did not give
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor.');
}

/** A ledger refusal or failure as the JSON-RPC error of a resource request. */
function ledgerFailure(uri: string, res: LedgerResponse): ProtocolError {
  if (res.status === 404) return new ResourceNotFoundError(uri);
  const { code, message } = ledgerError(res);
  const rpc = res.status >= 500 ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams;
  return new ProtocolError(rpc, `${uri}: ${code}: ${message}`, { code });
}

/**
 * resources/list: the fixed resources of the granted areas on the first page, then the
 * company's stored documents, newest first, `DOCUMENTS_PER_PAGE` a page; `nextCursor` while
 * a page came back full.
 */
export async function listResources(
  deps: ResourceDeps,
  connection: McpConnection,
  permitted: PermittedEndpoints,
  cursor: string | undefined,
  perPage = DOCUMENTS_PER_PAGE,
): Promise<ListResourcesResult> {
  const offset = decodeCursor(cursor);
  const resources = offset === 0 ? fixedResources(deps, connection, permitted) : [];
  if (
    !usable(connection, permitted, contracts.listStoredDocuments) ||
    !usable(connection, permitted, contracts.getDocumentContent)
  )
    return { resources };
  const path = `/client/${encodeURIComponent(connection.dataset)}/documents?limit=${perPage}&offset=${offset}`;
  const res = await deps.callLedger(connection, 'GET', path);
  if (res.status !== 200 || !Array.isArray(res.body))
    throw ledgerFailure(resourceUri(connection.dataset, 'documents'), res);
  const icons = areaIcons(deps.publicUrl, 'documents');
  for (const doc of res.body) {
    if (!isRecord(doc) || typeof doc.id !== 'number') continue;
    resources.push({
      uri: resourceUri(connection.dataset, `documents/${doc.id}`),
      name: typeof doc.name === 'string' ? doc.name : `document-${doc.id}`,
      ...(typeof doc.media_type === 'string' ? { mimeType: doc.media_type } : {}),
      ...(typeof doc.size === 'number' ? { size: doc.size } : {}),
      icons,
    });
  }
  return res.body.length === perPage ? { resources, nextCursor: encodeCursor(offset + perPage) } : { resources };
}

/** resources/templates/list: the parameterised URIs of the granted areas. */
export function listResourceTemplates(
  deps: ResourceDeps,
  connection: McpConnection,
  permitted: PermittedEndpoints,
): ListResourceTemplatesResult {
  const { dataset } = connection;
  const base = `ledger://${encodeURIComponent(dataset)}`;
  const templates: ResourceTemplateInfo[] = [];
  if (usable(connection, permitted, contracts.getDocumentContent)) {
    templates.push({
      uriTemplate: `${base}/documents/{id}`,
      name: 'document',
      title: 'Stored document',
      description: 'The bytes of a document (list_documents, get_document)',
      icons: areaIcons(deps.publicUrl, 'documents'),
    });
  }
  const pdfSides = (['customer', 'vendor'] as const).filter((side) =>
    usable(connection, permitted, contracts.getInvoicePdf, side),
  );
  if (pdfSides.length > 0) {
    templates.push({
      uriTemplate: `${base}/invoices/{vc}/{id}/pdf`,
      name: 'invoice-pdf',
      title: 'Invoice PDF',
      description: `vc: ${pdfSides.join(' or ')}`,
      mimeType: 'application/pdf',
      icons: areaIcons(deps.publicUrl, 'invoices'),
    });
  }
  if (Object.values(REPORTS).some((c) => usable(connection, permitted, c))) {
    const description = 'report: trial_balance, income_statement, balance_sheet (?date=) or vat';
    const icons = areaIcons(deps.publicUrl, 'accounting');
    templates.push(
      {
        uriTemplate: `${base}/reports/{report}{?from,to,date}`,
        name: 'report',
        title: 'Report (JSON)',
        description,
        mimeType: 'application/json',
        icons,
      },
      {
        uriTemplate: `${base}/reports/{report}.csv{?from,to,date}`,
        name: 'report-csv',
        title: 'Report (CSV)',
        description,
        mimeType: 'text/csv',
        icons,
      },
    );
  }
  return { resourceTemplates: templates };
}

/** resources/read: the ledger read behind the URI, as the resource's one content. */
export async function readResource(
  deps: ResourceDeps,
  connection: McpConnection,
  uri: string,
): Promise<ReadResourceResult> {
  const resource = resolveResource(uri);
  if (!resource || resource.dataset !== connection.dataset) throw new ResourceNotFoundError(uri);
  if (!scopeSatisfied(connection.scopes, resourceScope(resource))) {
    // steps.ts answers this before the SDK with the step-up challenge; kept here for any other way in
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri} needs the scope ${resourceScope(resource)}.`);
  }
  const path = `/client/${encodeURIComponent(connection.dataset)}${resource.path}`;
  const res = await deps.callLedger(
    connection,
    'GET',
    path,
    undefined,
    resource.accept ? { accept: resource.accept } : undefined,
  );
  if (res.status < 200 || res.status >= 300) throw ledgerFailure(uri, res);
  if (res.file) return { contents: [{ uri, mimeType: res.file.mediaType, blob: res.file.data.toString('base64') }] };
  if (typeof res.body === 'string')
    return { contents: [{ uri, mimeType: resource.mimeType ?? 'text/plain', text: res.body }] };
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(res.body) }] };
}
