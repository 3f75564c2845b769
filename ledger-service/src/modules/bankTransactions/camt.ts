import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Money } from '@ledger/shared';
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
 * names. ISO 20022 documents put every element of the message in that one namespace, so
 * children are looked up by the root's prefix (usually none). The whole file is parsed in
 * memory: its size is bounded by the body limit (LEDGER_FILE_LIMIT).
 */

const NAMESPACES: Record<string, { kind: 'camt.053' | 'camt.054'; version: '04' | '08' }> = {
  'urn:iso:std:iso:20022:tech:xsd:camt.053.001.04': { kind: 'camt.053', version: '04' },
  'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08': { kind: 'camt.053', version: '08' },
  'urn:iso:std:iso:20022:tech:xsd:camt.054.001.04': { kind: 'camt.054', version: '04' },
  'urn:iso:std:iso:20022:tech:xsd:camt.054.001.08': { kind: 'camt.054', version: '08' },
};

/** Elements that may repeat in the parts of camt read here: always arrays, also when they occur once. */
const REPEATING = new Set(['Stmt', 'Ntfctn', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd', 'AddtlNtryInf']);

type XmlNode = { readonly [name: string]: unknown };

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

function fileError(message: string): Error {
  return ruleInvalid(`The statement file is not usable: ${message}`);
}

/** Reads children of one namespace prefix: `el(node, 'Ntry')` is `<p:Ntry>` when the document's prefix is `p`. */
class Reader {
  constructor(private readonly prefix: string) {}

  private key(name: string): string {
    return this.prefix ? `${this.prefix}:${name}` : name;
  }

  /** The first child element of that name (an object), if any. */
  el(node: XmlNode | undefined, ...path: string[]): XmlNode | undefined {
    let current: unknown = node;
    for (const name of path) {
      if (typeof current !== 'object' || current === null) return undefined;
      const v = (current as XmlNode)[this.key(name)];
      current = Array.isArray(v) ? v[0] : v;
    }
    if (typeof current === 'string') return { '#text': current };
    return typeof current === 'object' && current !== null ? (current as XmlNode) : undefined;
  }

  /** All child elements of that name. */
  all(node: XmlNode | undefined, name: string): XmlNode[] {
    if (!node) return [];
    const v = node[this.key(name)];
    const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
    return list.map((x) => (typeof x === 'object' && x !== null ? (x as XmlNode) : { '#text': String(x) }));
  }

  /** The text of the element at the path, trimmed, or null when absent or empty. */
  text(node: XmlNode | undefined, ...path: string[]): string | null {
    const target = path.length === 0 ? node : this.el(node, ...path);
    if (!target) return null;
    const t = target['#text'];
    if (typeof t !== 'string' && typeof t !== 'number') return null;
    const s = String(t).trim();
    return s === '' ? null : s;
  }

  /** All texts of repeated elements (e.g. Ustrd). */
  texts(node: XmlNode | undefined, name: string): string[] {
    return this.all(node, name).map((n) => this.text(n)).filter((s): s is string => s !== null);
  }
}

const options = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // camt files carry no entities beyond the five predefined ones; a DOCTYPE is refused before parsing
  processEntities: true,
  isArray: (name: string) => REPEATING.has(localName(name)),
} as const;

/** Parses one entry's content (kept as text by the document parser) into its tree. */
const entryParser = new XMLParser(options);

const documentParsers = new Map<string, XMLParser>();
/**
 * The document parser for a namespace prefix: entries (<Ntry>) are kept as text and parsed one
 * at a time, so a statement of many thousand entries never becomes one large tree in memory.
 */
function documentParser(prefix: string): XMLParser {
  let p = documentParsers.get(prefix);
  if (!p) {
    p = new XMLParser({ ...options, stopNodes: [`*.${prefix ? `${prefix}:` : ''}Ntry`] });
    documentParsers.set(prefix, p);
  }
  return p;
}

/** The prefix of the root element (`c` of `<c:Document>`), read before parsing to choose the parser. */
function rootPrefix(xml: string): string {
  const m = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*<([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*[\s/>]/.exec(xml);
  return m ? m[1]! : '';
}

/** A decimal amount as camt writes it (no sign, "." decimals, at most 5 decimals), else a 400. */
function amountOf(text: string | null, where: string): Money {
  if (text === null || !/^\d{1,18}(\.\d{1,5})?$/.test(text)) throw fileError(`${where}: "${text ?? ''}" is not an amount.`);
  return new Money(text);
}

function dateOf(r: Reader, node: XmlNode | undefined, where: string): string | null {
  const raw = r.text(node, 'Dt') ?? r.text(node, 'DtTm');
  if (raw === null) return null;
  const date = raw.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !isCalendarDate(date)) throw fileError(`${where}: "${raw}" is not a date.`);
  return date;
}

function signed(amount: Money, indicator: string | null, where: string): Money {
  if (indicator === 'CRDT') return amount;
  if (indicator === 'DBIT') return amount.negated() as Money;
  throw fileError(`${where}: CdtDbtInd must be CRDT or DBIT, not "${indicator ?? ''}".`);
}

/** The document's root element and namespace: which camt message, in which prefix. */
function rootOf(doc: XmlNode): { root: XmlNode; prefix: string; kind: 'camt.053' | 'camt.054'; version: '04' | '08' } {
  const names = Object.keys(doc).filter((k) => !k.startsWith('?') && !k.startsWith('#'));
  if (names.length !== 1) throw fileError('the file has no single root element.');
  const name = names[0]!;
  if (localName(name) !== 'Document') throw fileError(`the root element is <${name}>, not an ISO 20022 <Document>.`);
  const prefix = name.includes(':') ? name.slice(0, name.indexOf(':')) : '';
  const root = doc[name];
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw fileError('the <Document> element is empty.');
  const ns = (root as XmlNode)[prefix ? `@xmlns:${prefix}` : '@xmlns'];
  const known = typeof ns === 'string' ? NAMESPACES[ns.trim()] : undefined;
  if (!known) {
    throw fileError(`unknown message type ${typeof ns === 'string' ? `"${ns}"` : '(no namespace)'}; supported are camt.053 and camt.054 in versions .001.04 and .001.08.`);
  }
  return { root: root as XmlNode, prefix, ...known };
}

/**
 * Parses a camt.053 / camt.054 file. Refuses malformed XML, a DOCTYPE (camt has none; it
 * would only serve entity tricks), unknown namespaces and entries it cannot read.
 */
export function parseCamt(xml: string): ParsedStatement[] {
  if (/<!DOCTYPE/i.test(xml)) throw fileError('a DOCTYPE is not allowed in ISO 20022 messages.');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw fileError(`malformed XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`);
  const { root, prefix, kind, version } = rootOf(documentParser(rootPrefix(xml)).parse(xml) as XmlNode);
  const r = new Reader(prefix);
  const message = r.el(root, kind === 'camt.053' ? 'BkToCstmrStmt' : 'BkToCstmrDbtCdtNtfctn');
  if (!message) throw fileError(`<Document> has no ${kind === 'camt.053' ? 'BkToCstmrStmt' : 'BkToCstmrDbtCdtNtfctn'}.`);
  const statements = r.all(message, kind === 'camt.053' ? 'Stmt' : 'Ntfctn');
  if (statements.length === 0) throw fileError(`the message has no ${kind === 'camt.053' ? 'statement (Stmt)' : 'notification (Ntfctn)'}.`);
  return statements.map((s, i) => readStatement(r, s, { kind, version, where: `${kind === 'camt.053' ? 'Stmt' : 'Ntfctn'} ${i + 1}` }));
}

function readStatement(r: Reader, s: XmlNode, m: { kind: 'camt.053' | 'camt.054'; version: '04' | '08'; where: string }): ParsedStatement {
  const acct = r.el(s, 'Acct');
  const iban = r.text(acct, 'Id', 'IBAN');
  const otherId = r.text(acct, 'Id', 'Othr', 'Id');
  const balances = r.all(s, 'Bal').map((b, i) => readBalance(r, b, `${m.where}, Bal ${i + 1}`));
  const balance = (...codes: string[]) => balances.find((b) => codes.includes(b.code)) ?? null;
  const entries: StatementEntry[] = [];
  let skipped = 0;
  r.all(s, 'Ntry').forEach((raw, i) => {
    const where = `${m.where}, Ntry ${i + 1}`;
    // a wrapper of another name than Ntry, which is always an array
    const parsed = (entryParser.parse(`<Entry>${String(raw['#text'] ?? '')}</Entry>`) as XmlNode).Entry;
    const n: XmlNode = typeof parsed === 'object' && parsed !== null ? (parsed as XmlNode) : {};
    // .04: <Sts>BOOK</Sts>; .08: <Sts><Cd>BOOK</Cd></Sts>. Pending or information entries are not on the account yet.
    const status = r.text(n, 'Sts', 'Cd') ?? r.text(n, 'Sts');
    if (status !== null && status !== 'BOOK') {
      skipped++;
      return;
    }
    entries.push(...readEntry(r, n, where));
  });
  return {
    source: m.kind,
    version: m.version,
    id: r.text(s, 'Id'),
    iban: iban ? iban.replace(/\s+/g, '').toUpperCase() : null,
    accountLabel: iban ?? otherId,
    currency: r.text(acct, 'Ccy'),
    opening: balance('OPBD', 'PRCD'),
    closing: balance('CLBD'),
    entries,
    skipped,
  };
}

function readBalance(r: Reader, b: XmlNode, where: string): StatementBalance & { code: string } {
  const code = r.text(b, 'Tp', 'CdOrPrtry', 'Cd') ?? r.text(b, 'Tp', 'CdOrPrtry', 'Prtry') ?? '';
  const amt = r.el(b, 'Amt');
  const amount = signed(amountOf(r.text(amt), `${where} amount`), r.text(b, 'CdtDbtInd'), where);
  return { code, amount, currency: String(amt?.['@Ccy'] ?? '').trim(), date: dateOf(r, r.el(b, 'Dt'), where) };
}

/** The counterparty of a transaction: the debtor of a credit, the creditor of a debit (.08 nests the name in Pty). */
function counterpartyOf(r: Reader, tx: XmlNode | undefined, credit: boolean): { name: string | null; iban: string | null } {
  const parties = r.el(tx, 'RltdPties');
  const role = credit ? 'Dbtr' : 'Cdtr';
  const party = r.el(parties, role);
  const name = r.text(party, 'Pty', 'Nm') ?? r.text(party, 'Nm')
    ?? r.text(parties, credit ? 'UltmtDbtr' : 'UltmtCdtr', 'Pty', 'Nm') ?? r.text(parties, credit ? 'UltmtDbtr' : 'UltmtCdtr', 'Nm');
  const iban = r.text(parties, `${role}Acct`, 'Id', 'IBAN');
  return { name, iban: iban ? iban.replace(/\s+/g, '').toUpperCase() : null };
}

function detailFields(r: Reader, tx: XmlNode | undefined, entry: XmlNode, credit: boolean) {
  const { name, iban } = counterpartyOf(r, tx, credit);
  const rmt = r.el(tx, 'RmtInf');
  const ref = r.all(rmt, 'Strd').map((s) => r.text(s, 'CdtrRefInf', 'Ref')).find((x) => x !== null) ?? null;
  const e2e = r.text(tx, 'Refs', 'EndToEndId');
  const text = [...r.texts(rmt, 'Ustrd')].join(' ') || r.text(tx, 'AddtlTxInf') || r.texts(entry, 'AddtlNtryInf').join(' ') || null;
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
function readEntry(r: Reader, n: XmlNode, where: string): StatementEntry[] {
  const amt = r.el(n, 'Amt');
  const currency = String(amt?.['@Ccy'] ?? '').trim();
  if (!/^[A-Z]{3}$/.test(currency)) throw fileError(`${where}: the amount has no currency.`);
  const amount = signed(amountOf(r.text(amt), `${where} amount`), r.text(n, 'CdtDbtInd'), where);
  const date = dateOf(r, r.el(n, 'BookgDt'), where);
  if (date === null) throw fileError(`${where}: no booking date (BookgDt).`);
  const valueDate = dateOf(r, r.el(n, 'ValDt'), where);
  const reversal = r.text(n, 'RvslInd') === 'true';
  const bankReference = r.text(n, 'AcctSvcrRef');
  const details = r.all(n, 'NtryDtls').flatMap((d) => r.all(d, 'TxDtls'));
  const base = { date, valueDate, currency, bankReference, reversal };

  if (details.length <= 1) {
    return [{ ...base, amount, ...detailFields(r, details[0], n, amount.isPositive()), detail: null }];
  }
  // a batch: each detail is its own transaction with its own amount, which must add up to the entry
  const parts = details.map((d, i) => {
    const at = `${where}, TxDtls ${i + 1}`;
    const dAmt = r.el(d, 'Amt') ?? r.el(d, 'AmtDtls', 'TxAmt', 'Amt');
    if (!dAmt) throw fileError(`${at}: a transaction of a batch entry has no amount.`);
    const dCurrency = String(dAmt['@Ccy'] ?? '').trim();
    if (dCurrency !== currency) throw fileError(`${at}: amount in ${dCurrency}, the entry is in ${currency}.`);
    const value = signed(amountOf(r.text(dAmt), `${at} amount`), r.text(d, 'CdtDbtInd') ?? r.text(n, 'CdtDbtInd'), at);
    return {
      ...base,
      amount: value,
      bankReference: r.text(d, 'Refs', 'AcctSvcrRef') ?? bankReference,
      ...detailFields(r, d, n, value.isPositive()),
      detail: i + 1,
    };
  });
  const sum = parts.reduce((s, p) => s.plus(p.amount), new Money(0));
  if (!sum.equals(amount)) throw fileError(`${where}: the batch's transactions add up to ${sum.toFixed()}, the entry says ${amount.toFixed()}.`);
  return parts;
}
