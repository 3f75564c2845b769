/**
 * The person confirms what an assistant books (docs/mcp.md "Confirmation"). A write whose
 * contract declares that it posts, pays, sends or deletes (`Contract.effect`; a posting only
 * when it posts, not a draft) runs only after the connected person said yes to a question
 * built from the LEDGER's preview: the ledger refuses such a write of an AI connection with
 * 428 `confirmation_required`, its own figures (gross, net, tax, currency, party, accounts:
 * the rules of the posting, nothing written) and a token bound to the connection, the tool
 * and the exact request (ledger kernel/confirmation.ts). The gateway asks the person:
 *
 * - 2025-era clients that declared `elicitation` at `initialize`: an `elicitation/create`
 *   request on the call's own SSE stream (legacyConfirm.ts), answered by the client's POST;
 * - 2026-07-28 clients that declare it in the request's envelope: an `input_required`
 *   result (multi-round-trip); the client retries the call with the person's answer and the
 *   `requestState` minted here, which carries the ledger's token and binds the answer to this
 *   connection, tool and input;
 * - any other client: the safe path — a posting is saved as a draft that waits in the app's
 *   workstation, anything else is not done; the result says so.
 *
 * On yes the write is sent again with the token, which the ledger takes once: a replayed
 * answer (a retry with a new request id) meets a used token and the person is asked again.
 * "Decline" or "cancel" takes the safe path too. The company setting
 * `ai_may_post_without_confirmation` (owners and admins, off by default) skips the question,
 * at the ledger as here. The write carries how it was confirmed (X-Assistant-Confirmation),
 * which the ledger records in the write's audit entry.
 *
 * Why the question here and the rule at the ledger: confirming is a conversation with the
 * person's client, which only the gateway has; whether a write may stand is decided where
 * the money is, whichever path of the gateway (or none) sent it.
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
  ASSISTANT_TOOL_HEADER,
  CONFIRMATION_TOKEN_HEADER,
  money as decimal,
  type AssistantConfirmation,
  type ConfirmationPreview,
  type Contract,
} from '@ledger/shared';
import { canonicalJson } from '@ledger/shared/canonicalJson';
import type { CatalogueTool } from './tools/catalogue.ts';
import { restCallFor, type ResolvedTool, type ToolInput } from './tools/declare.ts';
import { isRecord } from './tools/isRecord.ts';
import type { McpConnection, McpDeps } from './types.ts';

/** What a consequential write does. */
/**
 * `book`: a posting that has no draft (a bank line booked): not done unless the person says yes.
 * `allocate`: a credit note set against a document; `dunning`: a dunning run's reminders sent and fees booked.
 */
export type Consequence =
  | 'post'
  | 'book'
  | 'approve'
  | 'payment'
  | 'allocate'
  | 'email'
  | 'reminder'
  | 'dunning'
  | 'delete';

/** The contract a call of `tool` with `input` makes (its alternative's when the input carries its field). */
function contractFor(tool: Pick<ResolvedTool, 'contract' | 'alternative'>, input: ToolInput): Contract {
  return tool.alternative && input[tool.alternative.field] !== undefined ? tool.alternative.contract : tool.contract;
}

/**
 * The consequence of calling `tool` with `input`, from its contract's declared effect, or
 * undefined for a write that needs no confirmation (a draft of a draftable posting). The
 * ledger decides in the end: a write it holds all the same is asked for (runConfirmed).
 */
export function consequenceOf(
  tool: Pick<ResolvedTool, 'access' | 'contract' | 'alternative' | 'rest' | 'fixedBody'>,
  input: ToolInput,
): Consequence | undefined {
  if (tool.access !== 'write') return undefined;
  const contract = contractFor(tool, input);
  const fixed = restCallFor(tool, input).fixedBody ?? tool.fixedBody;
  const body = { ...input, ...fixed };
  // a write that can run dry (a dunning run) posts unless it is a dry run, which only reads
  const posts = !contract.draftable || (takesDryRun(contract) ? body.dry_run !== true : postsAnything(body));
  return consequenceOfEffect(contract, posts);
}

/** Whether the contract's body takes `dry_run` (a dunning run): then only a dry run posts nothing. */
function takesDryRun(contract: Pick<Contract, 'body'>): boolean {
  const body = contract.body;
  return isRecord(body) && isRecord(body.properties) && 'dry_run' in body.properties;
}

/**
 * Whether a call of `tool` may need the person: its contract (or its alternative's) declares
 * an effect. Such calls are served where the person can be asked (http.ts), even when the
 * input looks like a draft, since the ledger decides.
 */
export function mayAsk(tool: Pick<ResolvedTool, 'access' | 'contract' | 'alternative'>): boolean {
  return (
    tool.access === 'write' &&
    (hasEffect(tool.contract) || (tool.alternative !== undefined && hasEffect(tool.alternative.contract)))
  );
}

/** A contract with a consequence (a module-level function: mayAsk runs on every tools/call). */
function hasEffect(c: Contract): boolean {
  return c.effect !== undefined && c.effect !== 'none';
}

function consequenceOfEffect(
  contract: Pick<Contract, 'name' | 'effect' | 'draftable'>,
  posts: boolean,
): Consequence | undefined {
  switch (contract.effect) {
    case 'posts':
      if (contract.name.startsWith('approve')) return 'approve';
      if (contract.name === 'runDunning') return posts ? 'dunning' : undefined;
      // a posting with no draft to fall back on: the safe path must not run it again (it would book)
      if (contract.name !== '' && !contract.draftable) return 'book';
      return posts ? 'post' : undefined;
    case 'pays':
      return contract.name === 'allocateCreditNote' ? 'allocate' : 'payment';
    case 'sends':
      return contract.name === 'sendReminder' ? 'reminder' : 'email';
    case 'deletes':
      return 'delete';
    default:
      return undefined;
  }
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

/** How a write was confirmed, and the ledger's token that confirms it (absent: the company setting). */
export interface Confirmed {
  how: AssistantConfirmation;
  token?: string | undefined;
}

/** Runs the tool's REST call, sending `confirmation` with it when given (server.ts runTool). */
export type RunTool = (input: ToolInput, confirmation?: Confirmed) => Promise<CallToolResult>;

/** What the ledger answered a write it holds: its preview and the token that confirms exactly that write. */
export interface Held {
  preview: ConfirmationPreview;
  token: string;
}

/** The results of tool calls the ledger held (428 confirmation_required): the token stays out of the result. */
const held = new WeakMap<CallToolResult, Held>();

/** Marks `result` as the answer to a held write (server.ts runTool). */
export function holdResult(result: CallToolResult, body: unknown): CallToolResult {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const confirmation = isRecord(error?.confirmation) ? error.confirmation : undefined;
  if (error?.code === 'confirmation_required' && isRecord(error.preview) && typeof confirmation?.token === 'string')
    held.set(result, { preview: error.preview as unknown as ConfirmationPreview, token: confirmation.token });
  return result;
}

function heldBy(result: CallToolResult): Held | undefined {
  return held.get(result);
}

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

/** Headers of a write tool's call: the tool (a confirmation is bound to it) and how it was confirmed. */
export function confirmationHeaders(tool: string, confirmation: Confirmed | undefined): Record<string, string> {
  return {
    [ASSISTANT_TOOL_HEADER]: tool,
    ...(confirmation ? { [ASSISTANT_CONFIRMATION_HEADER]: confirmation.how } : {}),
    ...(confirmation?.token ? { [CONFIRMATION_TOKEN_HEADER]: confirmation.token } : {}),
  };
}

/**
 * Runs a call: directly when it needs no confirmation or the company lets AI connections
 * post without one; otherwise with the ledger's preview the person is asked as `asker` can,
 * then with the ledger's token — or on the safe path.
 */
export async function runConfirmed(
  deps: ConfirmDeps,
  connection: McpConnection,
  tool: CatalogueTool,
  input: ToolInput,
  asker: Asker,
  run: RunTool,
): Promise<CallToolResult | InputRequiredResult> {
  const name = tool.declaration.name;
  const foreseen = consequenceOf(tool.declaration, input);
  if (!foreseen || (await companyAllowsWithoutConfirmation(deps, connection))) {
    const result = await run(input, foreseen ? { how: 'company_setting' } : undefined);
    const hold = heldBy(result);
    // the ledger holds a write the gateway did not foresee (an update re-posting a posted document): ask
    return hold ? ask(consequenceOfEffect({ name: '', effect: hold.preview.effect }, true) ?? 'post', hold) : result;
  }
  const consequence = foreseen;
  if (asker.kind === 'none') return safePath(consequence, input, 'not_asked', run);

  if (asker.kind === 'input_required') {
    const answer = inputResponse(asker.responses, CONFIRM_KEY);
    // an answer counts only with the state minted for this very call (connection, tool, input)
    const token =
      asker.state === undefined ? undefined : tokenOfState(deps.stateKey, asker.state, connection, name, input);
    if (answer.kind === 'elicit' && token !== undefined) return answered(answer, 'input_required', token);
  }
  // the write without a token: the ledger answers with its preview (or, needing none after all, does it)
  const probe = await run(input);
  const hold = heldBy(probe);
  return hold ? ask(consequence, hold) : probe;

  async function ask(what: Consequence, hold: Held): Promise<CallToolResult | InputRequiredResult> {
    if (asker.kind === 'none') return safePath(what, input, 'not_asked', run);
    const question = await questionFor(deps, connection, tool, what, input, hold.preview);
    if (asker.kind === 'input_required') {
      return inputRequired({
        inputRequests: {
          [CONFIRM_KEY]: inputRequired.elicit({ message: question, requestedSchema: CONFIRM_SCHEMA }),
        },
        requestState: requestStateFor(deps.stateKey, connection, name, input, hold.token),
      });
    }
    let result: ElicitResult;
    try {
      result = await asker.elicit({ message: question, requestedSchema: CONFIRM_SCHEMA });
    } catch {
      result = { action: 'cancel' };
    }
    return answered(
      { action: result.action, content: result.content as Record<string, unknown> | undefined },
      'elicitation',
      hold.token,
    );
  }

  async function answered(
    answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> | undefined },
    how: AssistantConfirmation,
    token: string,
  ): Promise<CallToolResult | InputRequiredResult> {
    if (answer.action === 'accept' && answer.content?.confirm === true) {
      const result = await run(input, { how, token });
      const again = heldBy(result);
      // a used or expired token (a replayed answer): the person is asked again, never booked twice
      return again && how === 'input_required' ? ask(consequence, again) : result;
    }
    const reason = answer.action === 'cancel' ? 'cancelled' : 'declined';
    return safePath(consequence, input, reason, run);
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
  if (consequence === 'dunning') return dunningProposal(input, why, reason, run);
  const what: Record<Exclude<Consequence, 'post' | 'dunning'>, string> = {
    // a posting that has no draft form (a bank line's booking, a VAT return's settlement)
    // (a recurring invoice's creation names no record yet)
    book: input.id === undefined ? 'Nothing was created' : `Nothing was posted for ${String(input.id)}`,
    delete: 'Nothing was deleted',
    approve: `Bill ${String(input.id)} was not approved and stays a draft in the app's workstation (list_workstation)`,
    payment: 'The payment was not recorded',
    allocate:
      `Credit note ${String(input.id)} was not set against ${input.vc === 'vendor' ? 'bill' : 'invoice'} ` +
      String(input.document_id),
    email: `Invoice ${String(input.id)} was not e-mailed`,
    reminder: `No reminder was sent for invoice ${String(input.id)}`,
  };
  const text = `${what[consequence]}: ${why}. A person can do it in the app.`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { confirmation: { outcome: 'not_done', reason }, message: text },
  };
}

/**
 * A dunning run's safe path: nothing is sent; the run's proposal (a dry run, which only reads)
 * says what a person can send in the app.
 */
async function dunningProposal(
  input: ToolInput,
  why: string,
  reason: SafeReason,
  run: RunTool,
): Promise<CallToolResult> {
  const proposal = await run({ ...input, dry_run: true });
  if (proposal.isError) return proposal;
  const structured = isRecord(proposal.structuredContent) ? proposal.structuredContent : {};
  const due = Array.isArray(structured.items) ? structured.items.length : 0;
  const text =
    `No reminders were sent: ${why}. ` +
    `${due === 0 ? 'None are due' : `${due} would be (the proposal below)`}; a person can send them in the app.`;
  return {
    ...proposal,
    content: [{ type: 'text', text }, ...proposal.content.slice(1)],
    structuredContent: { ...structured, confirmation: { outcome: 'not_done', reason } },
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

/**
 * The requestState of a confirmation: the ledger's token and a MAC over the connection, the
 * tool, its canonical input and the token; the retry's token is taken only with its MAC.
 */
export function requestStateFor(
  key: Uint8Array,
  connection: McpConnection,
  tool: string,
  input: ToolInput,
  token: string,
): string {
  return `c2.${Buffer.from(token).toString('base64url')}.${stateMac(key, connection, tool, input, token)}`;
}

/** The ledger's token a requestState carries, when its MAC is right for this call; else undefined. */
export function tokenOfState(
  key: Uint8Array,
  state: string,
  connection: McpConnection,
  tool: string,
  input: ToolInput,
): string | undefined {
  const m = /^c2\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(state);
  if (!m) return undefined;
  const token = Buffer.from(m[1]!, 'base64url').toString();
  return sameState(m[2]!, stateMac(key, connection, tool, input, token)) ? token : undefined;
}

function stateMac(key: Uint8Array, connection: McpConnection, tool: string, input: ToolInput, token: string): string {
  const material = JSON.stringify(['confirm', connection.id, tool, canonicalJson(input), token]);
  return createHmac('sha256', key).update(material).digest('base64url');
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
  /** the ledger's preview of the write */
  preview: ConfirmationPreview,
): Promise<string> {
  const by = `${connection.clientName} asks to`;
  const gross = preview.gross !== undefined ? money(preview.gross, preview.currency) : undefined;
  switch (consequence) {
    case 'approve': {
      const number = preview.number ?? `#${String(input.id)}`;
      const party = preview.party ?? 'the vendor';
      return (
        `${by} approve and post bill ${number} from ${party}, ${gross ?? 'an unknown amount'}${taxPart(preview)}` +
        `${accountsPart(preview)}. Posting books it to the ledger; ` +
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
    case 'allocate': {
      const vc = input.vc === 'vendor' ? 'vendor' : 'customer';
      const note = await documentFacts(deps, connection, vc, input.id);
      const d = await documentFacts(deps, connection, vc, input.document_id);
      const amount = money(preview.gross ?? input.amount, d.gross?.split(' ')[1]);
      return (
        `${by} set ${amount} of credit note ${note.number} against ${vc === 'vendor' ? 'bill' : 'invoice'} ` +
        `${d.number} of ${d.party} (open ${d.open ?? 'amount unknown'}); no money moves. Set it off?`
      );
    }
    case 'dunning':
      return `${by} send the dunning run of ${String(input.date)}: ${dunningPart(preview)}. Send them?`;
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
    case 'book': {
      const party = preview.party ? ` from ${preview.party}` : '';
      const date = preview.date ? ` of ${preview.date}` : '';
      const document = preview.number ? ` as the payment of ${preview.number}` : '';
      return (
        `${by} book bank line ${String(input.id)}${date}${party}, ${gross ?? 'an unknown amount'}${document}` +
        `${accountsPart(preview)}. Booking posts it to the ledger; afterwards it can only be reversed. Book it?`
      );
    }
    case 'delete':
      return `${by} delete ${preview.number ?? 'a record'}${preview.party ? ` of ${preview.party}` : ''}. Delete it?`;
    case 'post': {
      const thing = POSTED_THING[tool.declaration.name] ?? { what: 'a document' };
      const vc = thing.vc;
      const what = input.id !== undefined ? `${thing.what} ${String(input.id)}` : thing.what;
      const number = preview.number ?? str(input.documentNumber) ?? str(input.reference);
      const party = preview.party ? ` ${vc === 'vendor' ? 'from' : 'for'} ${preview.party}` : '';
      const date = preview.date ? `, dated ${preview.date}` : '';
      return (
        `${by} post ${what}${number ? ` ${number}` : ''}${party}, ${gross ?? 'an unknown amount'}` +
        `${taxPart(preview)}${date}${accountsPart(preview)}. ` +
        'Posting books it to the ledger; afterwards it can only be reversed. Post it? (No saves it as a draft.)'
      );
    }
  }
}

/** A dunning run's reminders as the ledger's preview lists them: invoice, customer, level, open amount, the fees. */
function dunningPart(preview: ConfirmationPreview): string {
  const answer = isRecord(preview.answer) ? preview.answer : {};
  const items = Array.isArray(answer.items) ? answer.items.filter(isRecord) : [];
  const shown = items.slice(0, 5).map((i) => {
    const number = str(i.invNumber) ?? `#${String(i.invoice_id)}`;
    return `${number} to ${str(i.name) ?? 'the customer'}, level ${String(i.level)}, open ${money(i.open, i.currency)}`;
  });
  const more = items.length > shown.length ? `; and ${items.length - shown.length} more` : '';
  const fees = new Map<string, ReturnType<typeof decimal>>();
  for (const i of items) {
    const currency = str(i.currency) ?? '';
    if (typeof i.fee === 'number' && i.fee !== 0) fees.set(currency, (fees.get(currency) ?? decimal(0)).plus(i.fee));
  }
  const booked = [...fees].map(([currency, fee]) => `${fee.toFixed(2)}${currency ? ` ${currency}` : ''}`);
  return (
    `${items.length} reminder${items.length === 1 ? '' : 's'} (${shown.join('; ')}${more})` +
    `${booked.length > 0 ? `, fees of ${booked.join(' and ')} booked` : ', no fees'}`
  );
}

/** " (net …, tax …)" when the preview has both. */
function taxPart(preview: ConfirmationPreview): string {
  return preview.net !== undefined && preview.tax !== undefined
    ? ` (net ${money(preview.net, undefined)}, tax ${money(preview.tax, undefined)})`
    : '';
}

/** ", booked to accounts …" when the preview names them. */
function accountsPart(preview: ConfirmationPreview): string {
  return preview.accounts && preview.accounts.length > 0 ? `, booked to accounts ${preview.accounts.join(', ')}` : '';
}
