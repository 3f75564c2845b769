import { SaxesParser, type SaxesTagNS } from 'saxes';
import { Money, minorUnits } from '@ledger/shared/money';
import { compactReference } from '@ledger/shared/references';
import { ruleInvalid } from '../../domain/errors.ts';
import { isCalendarDate } from './rules.ts';
import type { ParsedStatement, StatementBalance, StatementEntry } from './rules.ts';

/**
 * ISO 20022 camt.053 (bank-to-customer statement) and camt.054 (debit/credit
 * notification) in the versions Swiss banks deliver (.001.04 and .001.08, Swiss Payment
 * Standards), read into statements and entries. Pure: text in, statements out, or a
 * DomainError (400) saying what is wrong with the file.
 *
 * The message type is taken from the root element's namespace, not guessed from element
 * names. ISO 20022 documents put every element of the message in that one namespace: only
 * elements of the root's namespace are read, whatever prefix the file binds it to. The text
 * of the file is bounded by the body limit (LEDGER_FILE_LIMIT); what is built from it while
 * reading is bounded by one entry (parseCamt).
 */

const NAMESPACES: Record<string, { kind: 'camt.053' | 'camt.054'; version: '04' | '08' }> = {
  'urn:iso:std:iso:20022:tech:xsd:camt.053.001.04': { kind: 'camt.053', version: '04' },
  'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08': { kind: 'camt.053', version: '08' },
  'urn:iso:std:iso:20022:tech:xsd:camt.054.001.04': { kind: 'camt.054', version: '04' },
  'urn:iso:std:iso:20022:tech:xsd:camt.054.001.08': { kind: 'camt.054', version: '08' },
};

/**
 * How deep and how large a statement file may be. A camt.053 entry nests at most ~12
 * elements below Document (Ntry/NtryDtls/TxDtls/RltdPties/Dbtr/Pty/PstlAdr/AdrLine…); 64
 * leaves room for any bank's extensions. The namespace-aware parser's cost grows with the
 * square of the depth (every element resolves its prefixes through all its ancestors), so
 * a file of 30,000 nested elements would hold a CPU for many seconds: reading stops at the
 * first element past either limit. 1,000,000 elements is ten times what a 10 MB statement
 * of real entries holds.
 */
export const CAMT_MAX_DEPTH = 64;
export const CAMT_MAX_ELEMENTS = 1_000_000;

/** An element of the document's namespace as read here: attributes without namespace, text trimmed later. */
interface XmlNode {
  readonly name: string;
  readonly attrs: Record<string, string>;
  text: string;
  readonly children: XmlNode[];
}

function fileError(message: string): Error {
  return ruleInvalid(`The statement file is not usable: ${message}`);
}

/** Reads child elements by local name (every element kept is in the document's one namespace). */
const r = {
  /** The first child element at that path, if any. */
  el(node: XmlNode | undefined, ...path: string[]): XmlNode | undefined {
    let current = node;
    for (const name of path) {
      if (!current) return undefined;
      current = current.children.find((c) => c.name === name);
    }
    return current;
  },

  /** All child elements of that name. */
  all(node: XmlNode | undefined, name: string): XmlNode[] {
    return node ? node.children.filter((c) => c.name === name) : [];
  },

  /** The text of the element at the path, trimmed, or null when absent or empty. */
  text(node: XmlNode | undefined, ...path: string[]): string | null {
    const target = path.length === 0 ? node : r.el(node, ...path);
    const s = target?.text.trim();
    return s ? s : null;
  },

  /** All texts of repeated elements (e.g. Ustrd). */
  texts(node: XmlNode | undefined, name: string): string[] {
    return r
      .all(node, name)
      .map((n) => r.text(n))
      .filter((s): s is string => s !== null);
  },
};

/** A decimal amount as camt writes it (no sign, "." decimals, at most 5 decimals), else a 400. */
function amountOf(text: string | null, where: string): Money {
  if (text === null || !/^\d{1,18}(\.\d{1,5})?$/.test(text))
    throw fileError(`${where}: "${text ?? ''}" is not an amount.`);
  return new Money(text);
}

function dateOf(node: XmlNode | undefined, where: string): string | null {
  const raw = r.text(node, 'Dt') ?? r.text(node, 'DtTm');
  if (raw === null) return null;
  const date = raw.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !isCalendarDate(date)) throw fileError(`${where}: "${raw}" is not a date.`);
  return date;
}

/**
 * An entry's amount in its currency's minor unit at most (CHF 10.05, not 10.00001): finer
 * amounts could never be booked or matched to a document, so the file is refused.
 */
function inMinorUnits(amount: Money, currency: string, where: string): Money {
  const allowed = minorUnits(currency);
  if (amount.decimalPlaces() > allowed) {
    throw fileError(
      `${where}: the amount ${amount.toFixed()} ${currency} has more decimals than ${currency} has (${allowed}).`,
    );
  }
  return amount;
}

function signed(amount: Money, indicator: string | null, where: string): Money {
  if (indicator === 'CRDT') return amount;
  if (indicator === 'DBIT') return amount.negated() as Money;
  throw fileError(`${where}: CdtDbtInd must be CRDT or DBIT, not "${indicator ?? ''}".`);
}

type MessageKind = { kind: 'camt.053' | 'camt.054'; version: '04' | '08' };

/**
 * What an open element is to the reader: the root, the message, a statement (camt.053 Stmt,
 * camt.054 Ntfctn), an entry of a statement, an element kept in the tree of its parent, or
 * one that is not needed (null: another namespace, the group header, …; its content is dropped).
 */
type Frame = { role: 'root' | 'message' | 'statement' | 'entry' | 'kept'; node: XmlNode } | null;

/** saxes' message without its "line:column: " prefix (the position is said once, by us). */
const saxesMessage = (err: Error) => err.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');

/**
 * Parses a camt.053 / camt.054 file in one pass of a streaming, namespace-aware XML parser
 * (saxes). Only the statement's own elements (account, balances) and the one entry being
 * read are held as small trees: each entry is turned into transactions when its end tag is
 * read and its tree dropped, so memory does not grow with a tree of the whole document.
 * Refuses malformed XML, a DOCTYPE (camt has none; it would only serve entity tricks),
 * unknown namespaces and entries it cannot read.
 */
export function parseCamt(xml: string): ParsedStatement[] {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let message: (MessageKind & { uri: string; node: XmlNode | undefined; statementName: string }) | undefined;
  const statements: ParsedStatement[] = [];
  // the statement being read: its entries so far and how many were not booked
  let current: { where: string; entries: StatementEntry[]; skipped: number; count: number } | undefined;
  const stack: Frame[] = [];
  let elements = 0;
  // The first thing wrong with the content. Reading goes on to the end without building
  // anything, so a file that is also not well-formed is refused as malformed XML first (the
  // more basic fault), whatever comes earlier in it.
  let refusal: unknown;
  const guarded =
    <A extends unknown[]>(handler: (...args: A) => void) =>
    (...args: A) => {
      if (refusal !== undefined) return;
      try {
        handler(...args);
      } catch (err) {
        refusal = err;
      }
    };

  parser.on('error', (err) => {
    // a root element whose prefix is bound to no namespace names no message type
    if (!message && /^unbound namespace prefix/.test(saxesMessage(err))) {
      throw fileError(
        'unknown message type (no namespace); supported are camt.053 and camt.054 in versions .001.04 and .001.08.',
      );
    }
    throw fileError(`malformed XML at line ${parser.line}, column ${parser.column + 1}: ${saxesMessage(err)}`);
  });
  parser.on('doctype', () => {
    throw fileError('a DOCTYPE is not allowed in ISO 20022 messages.');
  });
  // the limits are checked before anything else and stop reading at once (not `guarded`)
  parser.on('opentag', (tag) => {
    if (stack.length >= CAMT_MAX_DEPTH) {
      throw fileError(
        `elements are nested more than ${CAMT_MAX_DEPTH} deep (line ${parser.line}); ISO 20022 messages nest far less.`,
      );
    }
    if (++elements > CAMT_MAX_ELEMENTS)
      throw fileError(`it has more than ${CAMT_MAX_ELEMENTS.toLocaleString('en')} elements.`);
    openTag(tag);
  });
  const openTag = guarded((tag: SaxesTagNS) => {
    const depth = stack.length;
    if (depth === 0) {
      if (tag.local !== 'Document') throw fileError(`the root element is <${tag.name}>, not an ISO 20022 <Document>.`);
      const known = tag.uri ? NAMESPACES[tag.uri.trim()] : undefined;
      if (!known) {
        throw fileError(
          `unknown message type ${tag.uri ? `"${tag.uri}"` : '(no namespace)'}; supported are camt.053 and ` +
            `camt.054 in versions .001.04 and .001.08.`,
        );
      }
      message = {
        ...known,
        uri: tag.uri,
        node: undefined,
        statementName: known.kind === 'camt.053' ? 'Stmt' : 'Ntfctn',
      };
      stack.push({ role: 'root', node: newNode(tag.local, {}) });
      return;
    }
    const parent = stack[depth - 1];
    if (!parent || tag.uri !== message!.uri) {
      stack.push(null);
      return;
    }
    const node = newNode(tag.local, tag.attributes);
    if (parent.role === 'root') {
      const wanted = message!.kind === 'camt.053' ? 'BkToCstmrStmt' : 'BkToCstmrDbtCdtNtfctn';
      // the first message element of the Document is read, as ISO 20022 has exactly one
      if (tag.local === wanted && message!.node === undefined) {
        message!.node = node;
        stack.push({ role: 'message', node });
      } else stack.push(null);
    } else if (parent.role === 'message') {
      if (tag.local === message!.statementName) {
        current = { where: `${message!.statementName} ${statements.length + 1}`, entries: [], skipped: 0, count: 0 };
        stack.push({ role: 'statement', node });
      } else stack.push(null); // the group header is not needed
    } else if (parent.role === 'statement' && tag.local === 'Ntry') {
      // the entry's tree is not attached to the statement: it lives until its end tag only
      stack.push({ role: 'entry', node });
    } else {
      parent.node.children.push(node);
      stack.push({ role: 'kept', node });
    }
  });
  const onText = (text: string) => {
    if (refusal !== undefined) return;
    const top = stack[stack.length - 1];
    // whitespace between elements is not content; leaf text arrives as one event and is trimmed when read
    if (top && /\S/.test(text)) top.node.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on(
    'closetag',
    guarded(() => {
      const frame = stack.pop();
      if (!frame || !current) return;
      if (frame.role === 'entry') {
        current.count++;
        const n = frame.node;
        // .04: <Sts>BOOK</Sts>; .08: <Sts><Cd>BOOK</Cd></Sts>. Pending or information entries are not on the account
        // yet.
        const status = r.text(n, 'Sts', 'Cd') ?? r.text(n, 'Sts');
        if (status !== null && status !== 'BOOK') current.skipped++;
        else for (const e of readEntry(n, `${current.where}, Ntry ${current.count}`)) current.entries.push(e);
      } else if (frame.role === 'statement') {
        statements.push(readStatement(frame.node, current, message!));
        current = undefined;
      }
    }),
  );

  parser.write(xml).close();
  if (refusal !== undefined) throw refusal;
  if (!message) throw fileError('the file has no root element.');
  if (!message.node)
    throw fileError(`<Document> has no ${message.kind === 'camt.053' ? 'BkToCstmrStmt' : 'BkToCstmrDbtCdtNtfctn'}.`);
  if (statements.length === 0)
    throw fileError(
      `the message has no ${message.kind === 'camt.053' ? 'statement (Stmt)' : 'notification (Ntfctn)'}.`,
    );
  return statements;
}

const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

function newNode(name: string, attributes: Record<string, { uri: string; local: string; value: string }>): XmlNode {
  // most camt elements have no attributes: one shared empty object instead of one per element
  let attrs = NO_ATTRIBUTES;
  for (const key in attributes) {
    const a = attributes[key]!;
    if (a.uri !== '') continue;
    if (attrs === NO_ATTRIBUTES) attrs = {};
    attrs[a.local] = a.value;
  }
  return { name, attrs, text: '', children: [] };
}

function readStatement(
  s: XmlNode,
  read: { where: string; entries: StatementEntry[]; skipped: number },
  m: MessageKind,
): ParsedStatement {
  const acct = r.el(s, 'Acct');
  const iban = r.text(acct, 'Id', 'IBAN');
  const otherId = r.text(acct, 'Id', 'Othr', 'Id');
  const balances = r.all(s, 'Bal').map((b, i) => readBalance(b, `${read.where}, Bal ${i + 1}`));
  const balance = (...codes: string[]) => balances.find((b) => codes.includes(b.code)) ?? null;
  return {
    source: m.kind,
    version: m.version,
    id: r.text(s, 'Id'),
    iban: iban ? iban.replace(/\s+/g, '').toUpperCase() : null,
    accountLabel: iban ?? otherId,
    currency: r.text(acct, 'Ccy'),
    opening: balance('OPBD', 'PRCD'),
    closing: balance('CLBD'),
    entries: read.entries,
    skipped: read.skipped,
  };
}

function readBalance(b: XmlNode, where: string): StatementBalance & { code: string } {
  const code = r.text(b, 'Tp', 'CdOrPrtry', 'Cd') ?? r.text(b, 'Tp', 'CdOrPrtry', 'Prtry') ?? '';
  const amt = r.el(b, 'Amt');
  const amount = signed(amountOf(r.text(amt), `${where} amount`), r.text(b, 'CdtDbtInd'), where);
  return { code, amount, currency: (amt?.attrs.Ccy ?? '').trim(), date: dateOf(r.el(b, 'Dt'), where) };
}

/** The counterparty of a transaction: the debtor of a credit, the creditor of a debit (.08 nests the name in Pty). */
function counterpartyOf(tx: XmlNode | undefined, credit: boolean): { name: string | null; iban: string | null } {
  const parties = r.el(tx, 'RltdPties');
  const role = credit ? 'Dbtr' : 'Cdtr';
  const party = r.el(parties, role);
  const name =
    r.text(party, 'Pty', 'Nm') ??
    r.text(party, 'Nm') ??
    r.text(parties, credit ? 'UltmtDbtr' : 'UltmtCdtr', 'Pty', 'Nm') ??
    r.text(parties, credit ? 'UltmtDbtr' : 'UltmtCdtr', 'Nm');
  const iban = r.text(parties, `${role}Acct`, 'Id', 'IBAN');
  return { name, iban: iban ? iban.replace(/\s+/g, '').toUpperCase() : null };
}

function detailFields(tx: XmlNode | undefined, entry: XmlNode, credit: boolean) {
  const { name, iban } = counterpartyOf(tx, credit);
  const rmt = r.el(tx, 'RmtInf');
  const ref =
    r
      .all(rmt, 'Strd')
      .map((s) => r.text(s, 'CdtrRefInf', 'Ref'))
      .find((x) => x !== null) ?? null;
  const e2e = r.text(tx, 'Refs', 'EndToEndId');
  const text =
    [...r.texts(rmt, 'Ustrd')].join(' ') ||
    r.text(tx, 'AddtlTxInf') ||
    r.texts(entry, 'AddtlNtryInf').join(' ') ||
    null;
  return {
    counterparty: name,
    iban,
    reference: ref === null ? null : compactReference(ref),
    // "NOTPROVIDED" is what SPS puts where the payer gave no end-to-end id
    endToEndId: e2e === null || e2e === 'NOTPROVIDED' ? null : e2e,
    text,
  };
}

/** One entry, or one transaction per detail of a batch entry; amounts signed (credit positive). */
function readEntry(n: XmlNode, where: string): StatementEntry[] {
  const amt = r.el(n, 'Amt');
  const currency = (amt?.attrs.Ccy ?? '').trim();
  if (!/^[A-Z]{3}$/.test(currency)) throw fileError(`${where}: the amount has no currency.`);
  const amount = signed(
    inMinorUnits(amountOf(r.text(amt), `${where} amount`), currency, where),
    r.text(n, 'CdtDbtInd'),
    where,
  );
  const date = dateOf(r.el(n, 'BookgDt'), where);
  if (date === null) throw fileError(`${where}: no booking date (BookgDt).`);
  const valueDate = dateOf(r.el(n, 'ValDt'), where);
  const reversal = r.text(n, 'RvslInd') === 'true';
  const bankReference = r.text(n, 'AcctSvcrRef');
  const details = r.all(n, 'NtryDtls').flatMap((d) => r.all(d, 'TxDtls'));
  const base = { date, valueDate, currency, bankReference, reversal };

  if (details.length <= 1) {
    return [{ ...base, amount, ...detailFields(details[0], n, amount.isPositive()), detail: null }];
  }
  // a batch: each detail is its own transaction with its own amount, which must add up to the entry
  const parts = details.map((d, i) => {
    const at = `${where}, TxDtls ${i + 1}`;
    const dAmt = r.el(d, 'Amt') ?? r.el(d, 'AmtDtls', 'TxAmt', 'Amt');
    if (!dAmt) throw fileError(`${at}: a transaction of a batch entry has no amount.`);
    const dCurrency = (dAmt.attrs.Ccy ?? '').trim();
    if (dCurrency !== currency) throw fileError(`${at}: amount in ${dCurrency}, the entry is in ${currency}.`);
    const value = signed(
      inMinorUnits(amountOf(r.text(dAmt), `${at} amount`), currency, at),
      r.text(d, 'CdtDbtInd') ?? r.text(n, 'CdtDbtInd'),
      at,
    );
    return {
      ...base,
      amount: value,
      bankReference: r.text(d, 'Refs', 'AcctSvcrRef') ?? bankReference,
      ...detailFields(d, n, value.isPositive()),
      detail: i + 1,
    };
  });
  const sum = parts.reduce((s, p) => s.plus(p.amount), new Money(0));
  if (!sum.equals(amount))
    throw fileError(
      `${where}: the batch's transactions add up to ${sum.toFixed()}, the entry says ${amount.toFixed()}.`,
    );
  return parts;
}
