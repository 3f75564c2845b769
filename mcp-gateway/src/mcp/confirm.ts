/**
 * The person confirms what an assistant books (docs/mcp.md "Confirmation"). A consequential
 * write — posting (`pending: "0"`), `approve_bill`, `record_payment`, `email_invoice`,
 * `send_reminder` — made through an AI connection runs only after the connected person said
 * yes to a question naming the document, the party, the amount and what will happen:
 *
 * - 2025-era clients that declared `elicitation` at `initialize`: an `elicitation/create`
 *   request on the call's own SSE stream (legacyConfirm.ts), answered by the client's POST;
 * - 2026-07-28 clients that declare it in the request's envelope: an `input_required`
 *   result (multi-round-trip); the client retries the call with the person's answer and the
 *   `requestState` minted here, which binds the answer to this connection, tool and input;
 * - any other client: the safe path — a posting is saved as a draft that waits in the app's
 *   workstation, anything else is not done; the result says so.
 *
 * "Decline" or "cancel" takes the safe path too. The company setting
 * `ai_may_post_without_confirmation` (owners and admins, off by default) skips the question.
 * The write carries how it was confirmed (X-Assistant-Confirmation), which the ledger records
 * in the write's audit entry.
 *
 * Why in the gateway: confirming is a conversation with the person's client, which only the
 * gateway has; the ledger sees one REST write either way and records its confirmation.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  inputRequired,
  inputResponse,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import {
  ASSISTANT_CONFIRMATION_HEADER,
  money as decimal,
  type AssistantConfirmation,
  type Money,
} from '@ledger/shared';
import { canonicalJson } from '@ledger/shared/canonicalJson';
import type { CatalogueTool } from './tools/catalogue.ts';
import type { ToolInput } from './tools/declare.ts';
import { isRecord } from './tools/isRecord.ts';
import type { McpConnection, McpDeps } from './types.ts';

/** What a consequential write does. */
export type Consequence = 'post' | 'approve' | 'payment' | 'email' | 'reminder';

/** The consequence of calling `tool` with `input`, or undefined for a write that needs no confirmation. */
export function consequenceOf(
  tool: Pick<CatalogueTool['declaration'], 'name' | 'access'>,
  input: ToolInput,
): Consequence | undefined {
  switch (tool.name) {
    case 'approve_bill':
      return 'approve';
    case 'record_payment':
      return 'payment';
    case 'email_invoice':
      return 'email';
    case 'send_reminder':
      return 'reminder';
  }
  return tool.access === 'write' && postsAnything(input) ? 'post' : undefined;
}

const posts = (v: unknown) => isRecord(v) && (v.pending === '0' || v.pending === 0);

/** `pending: "0"` in the input or in an item of one of its lists (a batch of documents). */
function postsAnything(input: ToolInput): boolean {
  return posts(input) || Object.values(input).some((v) => Array.isArray(v) && v.some(posts));
}

/** The input saving drafts instead: without `pending`, at its top and in the items of its lists. */
export function asDrafts(input: ToolInput): ToolInput {
  const strip = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'pending'));
  return Object.fromEntries(
    Object.entries(strip(input)).map(([k, v]) => [
      k,
      Array.isArray(v) ? v.map((item) => (posts(item) ? strip(item as Record<string, unknown>) : item)) : v,
    ]),
  );
}

/** Whether declared client capabilities include form-mode elicitation (`elicitation: {}` means form). */
export function elicitsForms(capabilities: ClientCapabilities | Record<string, unknown> | undefined): boolean {
  const elicitation = (capabilities as Record<string, unknown> | undefined)?.elicitation;
  if (!isRecord(elicitation)) return false;
  return isRecord(elicitation.form) || (elicitation.form === undefined && elicitation.url === undefined);
}

/** How this call can ask the person. */
export type Asker =
  /** the client cannot be asked (no elicitation declared) */
  | { kind: 'none' }
  /** 2025-era: the gateway sends elicitation/create on the call's stream and waits for the answer */
  | { kind: 'elicit'; elicit(params: ElicitRequestFormParams): Promise<ElicitResult> }
  /** 2026-07-28: an input_required result; a retry carries the answer and the state */
  | { kind: 'input_required'; responses: Record<string, unknown> | undefined; state: string | undefined };

/** What confirming needs of the endpoint. */
export interface ConfirmDeps {
  callLedger: McpDeps['callLedger'];
  /** the key of the requestState MAC (the same on every replica) */
  stateKey: Uint8Array;
}

/** Runs the tool's REST call, sending `confirmation` with it when given (server.ts runTool). */
export type RunTool = (input: ToolInput, confirmation?: AssistantConfirmation) => Promise<CallToolResult>;

/** The key of the one input request a confirmation sends. */
const CONFIRM_KEY = 'confirm';

/** What the person is asked to fill in: one yes/no. */
const CONFIRM_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    confirm: { type: 'boolean', title: 'Confirm', description: 'Yes to go ahead; no keeps it undone' },
  },
  required: ['confirm'],
};

/** Headers of a confirmed write. */
export function confirmationHeaders(
  confirmation: AssistantConfirmation | undefined,
): Record<string, string> | undefined {
  return confirmation ? { [ASSISTANT_CONFIRMATION_HEADER]: confirmation } : undefined;
}

/**
 * Runs a call: directly when it needs no confirmation or the company lets AI connections
 * post without one; otherwise after asking the person as `asker` can, or on the safe path.
 */
export async function runConfirmed(
  deps: ConfirmDeps,
  connection: McpConnection,
  tool: CatalogueTool,
  input: ToolInput,
  asker: Asker,
  run: RunTool,
): Promise<CallToolResult | InputRequiredResult> {
  const consequence = consequenceOf(tool.declaration, input);
  if (!consequence) return run(input);
  if (await companyAllowsWithoutConfirmation(deps, connection)) return run(input, 'company_setting');
  if (asker.kind === 'none') return safePath(consequence, input, 'not_asked', run);

  if (asker.kind === 'input_required') {
    const state = requestStateFor(deps.stateKey, connection, tool.declaration.name, input);
    const answer = inputResponse(asker.responses, CONFIRM_KEY);
    // an answer counts only with the state minted for this very call (connection, tool, input)
    if (answer.kind === 'elicit' && asker.state !== undefined && sameState(asker.state, state)) {
      return answered(answer, 'input_required');
    }
    const question = await questionFor(deps, connection, tool, consequence, input);
    return inputRequired({
      inputRequests: {
        [CONFIRM_KEY]: inputRequired.elicit({ message: question, requestedSchema: CONFIRM_SCHEMA }),
      },
      requestState: state,
    });
  }

  const question = await questionFor(deps, connection, tool, consequence, input);
  let result: ElicitResult;
  try {
    result = await asker.elicit({ message: question, requestedSchema: CONFIRM_SCHEMA });
  } catch {
    result = { action: 'cancel' };
  }
  return answered(
    { action: result.action, content: result.content as Record<string, unknown> | undefined },
    'elicitation',
  );

  function answered(
    answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> | undefined },
    how: AssistantConfirmation,
  ): Promise<CallToolResult> {
    if (answer.action === 'accept' && answer.content?.confirm === true) return run(input, how);
    const reason = answer.action === 'cancel' ? 'cancelled' : 'declined';
    return safePath(consequence!, input, reason, run);
  }
}

/** Why a consequential write took the safe path. */
export type SafeReason = 'declined' | 'cancelled' | 'not_asked';

const REASON_TEXT: Record<SafeReason, string> = {
  declined: 'the person declined',
  cancelled: 'the person cancelled the question',
  not_asked:
    'this client cannot ask the person to confirm (no elicitation), and the company requires confirmation for AI ' +
    'connections',
};

/**
 * The safe path: a posting is saved as a draft (its input without `pending`) that waits in the
 * app's workstation; an approval, payment, e-mail or reminder is not done. Not a tool error:
 * the call did what it safely could, and says what that is.
 */
export async function safePath(
  consequence: Consequence,
  input: ToolInput,
  reason: SafeReason,
  run: RunTool,
): Promise<CallToolResult> {
  const why = REASON_TEXT[reason];
  if (consequence === 'post') {
    const saved = await run(asDrafts(input));
    if (saved.isError) return saved;
    const structured = isRecord(saved.structuredContent) ? saved.structuredContent : {};
    const id = structured.id ?? input.id;
    const text =
      `Not posted: ${why}. Saved as draft${id === undefined ? '' : ` ${String(id)}`}; it waits in the app's ` +
      'workstation (Drafts awaiting review, list_workstation) for a person to post it.';
    return {
      ...saved,
      content: [{ type: 'text', text }, ...saved.content.slice(1)],
      structuredContent: { ...structured, confirmation: { outcome: 'draft', reason, waits_in: 'workstation' } },
    };
  }
  const what: Record<Exclude<Consequence, 'post'>, string> = {
    approve: `Bill ${String(input.id)} was not approved and stays a draft in the app's workstation (list_workstation)`,
    payment: 'The payment was not recorded',
    email: `Invoice ${String(input.id)} was not e-mailed`,
    reminder: `No reminder was sent for invoice ${String(input.id)}`,
  };
  const text = `${what[consequence]}: ${why}. A person can do it in the app.`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { confirmation: { outcome: 'not_done', reason }, message: text },
  };
}

/** The company's setting, read as the connected person; unreadable counts as off (ask). */
async function companyAllowsWithoutConfirmation(deps: ConfirmDeps, connection: McpConnection): Promise<boolean> {
  try {
    const res = await deps.callLedger(
      connection,
      'GET',
      `/client/${encodeURIComponent(connection.dataset)}/system/company`,
    );
    return res.status === 200 && isRecord(res.body) && res.body.ai_may_post_without_confirmation === true;
  } catch {
    return false;
  }
}

/** The requestState of a confirmation: a MAC over the connection, the tool and its canonical input. */
export function requestStateFor(key: Uint8Array, connection: McpConnection, tool: string, input: ToolInput): string {
  const material = JSON.stringify(['confirm', connection.id, tool, canonicalJson(input)]);
  return `c1.${createHmac('sha256', key).update(material).digest('base64url')}`;
}

function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// --- the question -------------------------------------------------------------------

async function getJson(
  deps: ConfirmDeps,
  connection: McpConnection,
  path: string,
): Promise<Record<string, unknown> | undefined> {
  try {
    const res = await deps.callLedger(connection, 'GET', `/client/${encodeURIComponent(connection.dataset)}${path}`);
    return res.status === 200 && isRecord(res.body) ? res.body : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;

function money(amount: unknown, currency: unknown): string {
  const a = typeof amount === 'number' || typeof amount === 'string' ? decimal(amount).toFixed(2) : '?';
  return `${a}${typeof currency === 'string' ? ` ${currency}` : ''}`;
}

/** The document as the ledger has it (number, party, gross amount, currency). */
async function documentFacts(deps: ConfirmDeps, connection: McpConnection, vc: 'vendor' | 'customer', id: unknown) {
  const doc = await getJson(deps, connection, `/arap/document/${vc}/${encodeURIComponent(String(id))}`);
  return {
    number: str(doc?.documentNumber) ?? str(doc?.invNumber) ?? str(doc?.invnumber) ?? `#${String(id)}`,
    party: str(doc?.name) ?? `the ${vc}`,
    gross: doc ? money(doc.grossAmount, doc.currency) : undefined,
    open: doc ? money(doc.open, doc.currency) : undefined,
  };
}

/** The sum of the input's items or lines (as sent: before tax unless the prices include it), in decimal. */
function inputTotal(input: ToolInput): Money | undefined {
  const num = (v: unknown, fallback: number) => decimal(typeof v === 'number' || typeof v === 'string' ? v : fallback);
  const rows = (
    Array.isArray(input.items) ? input.items : Array.isArray(input.lines) ? input.lines : undefined
  )?.filter(isRecord);
  if (!rows) return undefined;
  const journal = rows.some((r) => 'debit' in r || 'credit' in r);
  return rows.reduce((sum, r) => {
    if (Array.isArray(input.items))
      return sum.plus(
        num(r.quantity, 1)
          .times(num(r.price, 0))
          .times(decimal(1).minus(num(r.discount, 0).div(100))),
      );
    return sum.plus(journal ? num(r.debit, 0) : num(r.amount, 0));
  }, decimal(0));
}

const POSTED_THING: Record<string, { what: string; vc?: 'vendor' | 'customer' }> = {
  create_bill: { what: 'a new vendor bill', vc: 'vendor' },
  update_bill: { what: 'vendor bill', vc: 'vendor' },
  create_invoice: { what: 'a new customer invoice', vc: 'customer' },
  update_invoice: { what: 'customer invoice', vc: 'customer' },
  create_journal_entry: { what: 'a new journal entry' },
  update_journal_entry: { what: 'journal entry' },
};

/** The question the person answers: the document, the party, the amount and what will happen. */
export async function questionFor(
  deps: ConfirmDeps,
  connection: McpConnection,
  tool: CatalogueTool,
  consequence: Consequence,
  input: ToolInput,
): Promise<string> {
  const by = `${connection.clientName} asks to`;
  switch (consequence) {
    case 'approve': {
      const d = await documentFacts(deps, connection, 'vendor', input.id);
      const total = inputTotal(input);
      const amount = d.gross ?? (total ? money(total.toFixed(2), input.curr) : 'an unknown amount');
      return (
        `${by} approve and post bill ${d.number} from ${d.party}, ${amount}. Posting books it to the ledger; ` +
        `afterwards it can only be reversed. Approve?`
      );
    }
    case 'payment': {
      const vc = input.vc === 'vendor' ? 'vendor' : 'customer';
      const d = await documentFacts(deps, connection, vc, input.document_id);
      const amount = money(input.amount, d.gross?.split(' ')[1] ?? input.curr);
      return vc === 'vendor'
        ? `${by} record a payment of ${amount} paid to ${d.party} on bill ${d.number} (${String(input.date)}, ` +
            `account ${String(input.account)}). Record it?`
        : `${by} record a payment of ${amount} received from ${d.party} on invoice ${d.number} (` +
            `${String(input.date)}, account ${String(input.account)}). Record it?`;
    }
    case 'email': {
      const d = await documentFacts(deps, connection, 'customer', input.id);
      const to = str(input.to) ? ` at ${String(input.to)}` : '';
      return `${by} e-mail invoice ${d.number} (${d.gross ?? 'amount unknown'}) as PDF to ${d.party}${to}. Send it?`;
    }
    case 'reminder': {
      const d = await documentFacts(deps, connection, 'customer', input.id);
      const fee = input.fee !== undefined ? `, with a fee of ${money(input.fee, undefined)}` : '';
      return (
        `${by} send the next payment reminder for invoice ${d.number} to ${d.party} (open ` +
        `${d.open ?? 'amount unknown'})${fee}. Send it?`
      );
    }
    case 'post': {
      const thing = POSTED_THING[tool.declaration.name] ?? { what: 'a document' };
      const vc = thing.vc;
      const existing = input.id !== undefined && vc ? await documentFacts(deps, connection, vc, input.id) : undefined;
      const partyId = vc ? input[`${vc}_id`] : undefined;
      const partyRecord =
        vc && partyId !== undefined
          ? await getJson(deps, connection, `/arap/${vc}/${encodeURIComponent(String(partyId))}`)
          : undefined;
      const party =
        str(partyRecord?.name) ??
        existing?.party ??
        (vc && partyId !== undefined ? `${vc} #${String(partyId)}` : undefined);
      const number = str(input.documentNumber) ?? str(input.invnumber) ?? str(input.reference) ?? existing?.number;
      const total = inputTotal(input);
      const amount = total ? `lines totalling ${money(total.toFixed(2), input.curr ?? input.currency)}` : 'its lines';
      const what = input.id !== undefined && !existing ? `${thing.what} ${String(input.id)}` : thing.what;
      const date = str(input.invDate ?? input.transdate) ? `, dated ${String(input.invDate ?? input.transdate)}` : '';
      return (
        `${by} post ${what}${number ? ` ${number}` : ''}` +
        `${party ? ` ${vc === 'vendor' ? 'from' : 'for'} ${party}` : ''}, ` +
        `${amount}${date}. ` +
        'Posting books it to the ledger; afterwards it can only be reversed. Post it? (No saves it as a draft.)'
      );
    }
  }
}
