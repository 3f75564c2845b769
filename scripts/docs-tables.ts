/**
 * `npm run docs:tables`: writes the tables the docs would otherwise repeat by hand, from the
 * registries they describe:
 *   - docs/rest-api.md, block "endpoints": every contract (shared/src/contracts) with its
 *     permission, the roles holding it, OAuth scope, success status and own error codes;
 *   - docs/mcp.md, block "mcp-tools": every MCP tool with area, access, scope, REST call and kind;
 *   - docs/assistants.md, block "consent-areas": per area of the consent page, the tools each
 *     choice (Read, Read and change) gives the assistant.
 * Each block sits between `<!-- generated:NAME … -->` and `<!-- /generated:NAME -->`; the
 * text around it stays hand-written. mcp-gateway/test/docsTables.test.ts fails when the
 * committed docs differ from what this produces.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  AREA_LABELS,
  AREAS,
  assertPublic,
  BODY_ERRORS,
  COMMON_ERRORS,
  CONTRACTS,
  ERROR_STATUS,
  errorCodesOf,
  isPerSide,
  ROLE_PERMISSIONS,
  ROLES,
  WRITABLE_AREAS,
  type Contract,
  type ErrorCode,
  type HttpMethod,
  type Permission,
} from '@ledger/shared';
import { CATALOGUE } from '../mcp-gateway/src/mcp/tools/catalogue.ts';
import { toolAnnotations, toolScope, type ResolvedTool } from '../mcp-gateway/src/mcp/tools/declare.ts';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [row(header), `|${header.map(() => '---|').join('')}`, ...rows.map(row)].join('\n');
}

const code = (s: string) => `\`${s}\``;

/** `/arap/:vc/:id` → `/arap/{vc}/{id}`, as the docs and the OpenAPI document write paths. */
function docPath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}

function withStatus(codes: readonly ErrorCode[]): string {
  return codes.map((c) => `${ERROR_STATUS[c]} ${code(c)}`).join(', ');
}

function rolesHolding(permission: Permission): string {
  const roles = ROLES.filter((role) => ROLE_PERMISSIONS[role].has(permission));
  return roles.length === ROLES.length ? 'every role' : roles.join(', ');
}

function permissionCells(c: Contract): [string, string] {
  if (c.permission === null) return ['— (any valid key)', 'every role'];
  if (!isPerSide(c.permission)) return [code(c.permission), rolesHolding(c.permission)];
  const { vendor, customer } = c.permission;
  const roles =
    rolesHolding(vendor) === rolesHolding(customer)
      ? rolesHolding(vendor)
      : `vendor: ${rolesHolding(vendor)}; customer: ${rolesHolding(customer)}`;
  return [`${code(vendor)} / ${code(customer)}`, roles];
}

/** Errors besides those every endpoint (and every body) can answer, which the text above the table names. */
function ownErrors(c: Contract): string {
  const shared = new Set<ErrorCode>([...COMMON_ERRORS, ...BODY_ERRORS]);
  return withStatus(errorCodesOf(c).filter((e) => !shared.has(e))) || '—';
}

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'DELETE'];

export function renderEndpointTable(contracts: readonly Contract[] = CONTRACTS): string {
  const intro =
    `Every endpoint can also answer ${withStatus(COMMON_ERRORS)}; every endpoint that takes a body also ` +
    `${withStatus(BODY_ERRORS)}. \`{vc}\` is \`vendor\` or \`customer\`; where the permission differs by side ` +
    `it reads ` +
    'vendor / customer. Scope is the OAuth scope an AI connection needs (— : not open to AI connections).';
  contracts.forEach(assertPublic); // the internal API is not documented for clients
  // by path, then GET, POST, DELETE: one resource's endpoints together
  const ordered = [...contracts].sort(
    (a, b) =>
      docPath(a.path).localeCompare(docPath(b.path)) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
  const rows = ordered.map((c) => [
    c.method,
    code(docPath(c.path)),
    ...permissionCells(c),
    c.scope ? code(c.scope) : '—',
    `${c.status ?? 200}${c.download ? ' (file)' : ''}`,
    ownErrors(c),
  ]);
  return `${intro}\n\n${table(['Method', 'Path', 'Permission', 'Roles', 'Scope', 'Success', 'Errors'], rows)}`;
}

function kind(tool: ResolvedTool): string {
  const a = toolAnnotations(tool);
  return a.readOnlyHint ? 'read-only' : a.destructiveHint ? 'destructive' : 'additive';
}

function restCells(tool: ResolvedTool): string {
  const own = code(`${tool.rest.method} ${tool.rest.path}`);
  const alt = tool.alternative;
  return alt ? `${own}; with \`${alt.field}\`: ${code(`${alt.rest.method} ${alt.rest.path}`)}` : own;
}

export function renderToolTable(tools: readonly ResolvedTool[] = CATALOGUE.map((t) => t.declaration)): string {
  const rows = tools.map((t) => [code(t.name), AREA_LABELS[t.area], t.access, toolScope(t), restCells(t), kind(t)]);
  return table(['Tool', 'Area', 'Access', 'Scope', 'REST call (relative to `{base_url}`)', 'Kind'], rows);
}

/**
 * What each consent choice gives, per area: Read the area's read tools; Read and change its
 * write tools too (a write scope includes reading). No access: none of the area's tools.
 */
export function renderConsentTable(tools: readonly ResolvedTool[] = CATALOGUE.map((t) => t.declaration)): string {
  const names = (area: string, access: string) =>
    tools
      .filter((t) => t.area === area && t.access === access)
      .map((t) => code(t.name))
      .join(', ');
  const rows = AREAS.map((area) => [
    AREA_LABELS[area],
    `${code(`${area}:read`)}: ${names(area, 'read')}`,
    WRITABLE_AREAS.includes(area)
      ? `${code(`${area}:write`)}: also ${names(area, 'write')}`
      : 'not offered (read only)',
  ]);
  return table(['Area', 'Read', 'Read and change'], rows);
}

export interface GeneratedBlock {
  /** path relative to the repository root */
  file: string;
  name: string;
  render(): string;
}

export const BLOCKS: readonly GeneratedBlock[] = [
  { file: 'docs/rest-api.md', name: 'endpoints', render: () => renderEndpointTable() },
  { file: 'docs/mcp.md', name: 'mcp-tools', render: () => renderToolTable() },
  { file: 'docs/assistants.md', name: 'consent-areas', render: () => renderConsentTable() },
];

/** The text with the block's content replaced; the markers must be there (they say where the table goes). */
export function replaceBlock(text: string, name: string, content: string): string {
  const start = new RegExp(`<!-- generated:${name}\\b[^>]*-->\\n`);
  const end = `<!-- /generated:${name} -->`;
  const open = start.exec(text);
  const close = text.indexOf(end);
  if (!open || close < open.index) throw new Error(`no <!-- generated:${name} --> … ${end} block`);
  const from = open.index + open[0].length;
  return `${text.slice(0, from)}${content}\n${text.slice(close)}`;
}

/** Each docs file as committed and as the generator would write it. */
export function generatedFiles(root: string = REPO_ROOT): { file: string; committed: string; generated: string }[] {
  const files = [...new Set(BLOCKS.map((b) => b.file))];
  return files.map((file) => {
    const committed = readFileSync(join(root, file), 'utf8');
    const generated = BLOCKS.filter((b) => b.file === file).reduce(
      (text, b) => replaceBlock(text, b.name, b.render()),
      committed,
    );
    return { file, committed, generated };
  });
}

function main(): void {
  for (const { file, committed, generated } of generatedFiles()) {
    if (committed === generated) continue;
    writeFileSync(join(REPO_ROOT, file), generated);
    console.log(`wrote ${file}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
