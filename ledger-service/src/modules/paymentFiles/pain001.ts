import { XMLBuilder } from 'fast-xml-parser';
import type { Decimal } from 'decimal.js';
import { Money, minorUnits } from '@ledger/shared';
import { referenceTypeOf } from '@ledger/shared/references';

/**
 * ISO 20022 pain.001.001.09 in the Swiss Payment Standards variant (pain.001.001.09.ch.03),
 * built as a tree and serialised by fast-xml-parser's XMLBuilder (which escapes the text),
 * never by string concatenation. Pure: the same input gives the same file.
 *
 * SPS restricts text to Latin characters (SPSText: Basic Latin, Latin-1 Supplement, Latin
 * Extended-A, €, Ș ș Ț ț) and identifiers to a smaller set (Max35Text_pain001_ch); names are
 * cleaned accordingly (diacritics outside the set dropped, other characters replaced by "?")
 * and cut to the field's length.
 */

export const PAIN001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

export interface Payment {
  /** Max35Text_pain001_ch: letters, digits and + ? / - : ( ) . , ' space */
  endToEndId: string;
  amount: Decimal;
  currency: string;
  creditorName: string;
  creditorIban: string;
  creditorBic: string | null;
  /** QR or creditor reference (structured remittance), else `text` is sent unstructured */
  reference: string | null;
  text: string;
}

export interface PaymentFileInput {
  messageId: string;
  createdAt: Date;
  executionDate: string;
  debtorName: string;
  debtorIban: string;
  debtorBic: string | null;
  payments: readonly Payment[];
}

const SPS_CHAR = /[\u0020-\u007e\u00a0-\u00ff\u0100-\u017f€ȘșȚț]/u;

/** Text SPS accepts (SPSText), at most `max` characters; never empty. */
export function spsText(value: string, max: number): string {
  let out = '';
  for (const ch of value.normalize('NFC')) {
    if (/\p{C}/u.test(ch)) out += ' ';
    else if (SPS_CHAR.test(ch)) out += ch;
    else {
      // a letter with a mark SPS lacks (e.g. ǎ): the base letter; anything else (Cyrillic, CJK, emoji) cannot be sent
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += [...base].every((c) => SPS_CHAR.test(c)) && base !== '' ? base : '?';
    }
  }
  const trimmed = out.replace(/\s+/g, ' ').trim();
  return [...trimmed].slice(0, max).join('').trim() || '?';
}

/** An identifier as SPS allows it (Max35Text_pain001_ch). */
export function spsId(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9+?/\-:().,' ]/g, '-').slice(0, 35);
  return cleaned === '' ? '-' : cleaned;
}

const amountText = (amount: Decimal, currency: string) => amount.toFixed(minorUnits(currency));

/**
 * The debtor's bank: its BIC, else for a Swiss/Liechtenstein IBAN the institution id (IID) in the Swiss clearing
 * system.
 */
function agent(iban: string, bic: string | null) {
  if (bic !== null) return { FinInstnId: { BICFI: bic } };
  if (/^(CH|LI)/.test(iban))
    return { FinInstnId: { ClrSysMmbId: { ClrSysId: { Cd: 'CHBCC' }, MmbId: iban.slice(4, 9) } } };
  return { FinInstnId: {} };
}

function remittance(p: Payment) {
  const type = p.reference === null ? null : referenceTypeOf(p.reference);
  if (type === 'QRR') return { Strd: { CdtrRefInf: { Tp: { CdOrPrtry: { Prtry: 'QRR' } }, Ref: p.reference } } };
  if (type === 'SCOR') return { Strd: { CdtrRefInf: { Tp: { CdOrPrtry: { Cd: 'SCOR' } }, Ref: p.reference } } };
  return { Ustrd: spsText(p.text, 140) };
}

function transaction(p: Payment, i: number, pmtInfId: string) {
  return {
    PmtId: { InstrId: spsId(`${pmtInfId}-${i + 1}`), EndToEndId: spsId(p.endToEndId) },
    Amt: { InstdAmt: { '@Ccy': p.currency, '#text': amountText(p.amount, p.currency) } },
    ...(p.creditorBic === null ? {} : { CdtrAgt: { FinInstnId: { BICFI: p.creditorBic } } }),
    Cdtr: { Nm: spsText(p.creditorName, 70) },
    CdtrAcct: { Id: { IBAN: p.creditorIban } },
    RmtInf: remittance(p),
  };
}

/** Groups of payments with the same currency (one PmtInf each), in the order currencies first occur. */
export function byCurrency(payments: readonly Payment[]): Map<string, Payment[]> {
  const groups = new Map<string, Payment[]>();
  for (const p of payments) groups.set(p.currency, [...(groups.get(p.currency) ?? []), p]);
  return groups;
}

const sum = (payments: readonly Payment[]) => payments.reduce((s, p) => s.plus(p.amount), new Money(0));

/** A timestamp as ISODateTime without fractions: 2024-04-10T09:30:00Z. */
const isoDateTime = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: false,
  processEntities: true,
});

export function buildPain001(input: PaymentFileInput): string {
  if (input.payments.length === 0) throw new Error('a payment file needs at least one payment');
  const groups = [...byCurrency(input.payments).entries()];
  const paymentInfos = groups.map(([currency, payments], g) => {
    const pmtInfId = spsId(`${input.messageId}-${g + 1}`);
    return {
      PmtInfId: pmtInfId,
      PmtMtd: 'TRF',
      BtchBookg: 'true',
      NbOfTxs: String(payments.length),
      CtrlSum: sum(payments).toFixed(),
      ReqdExctnDt: { Dt: input.executionDate },
      Dbtr: { Nm: spsText(input.debtorName, 70) },
      DbtrAcct: { Id: { IBAN: input.debtorIban } },
      DbtrAgt: agent(input.debtorIban, input.debtorBic),
      CdtTrfTxInf: payments.map((p, i) => transaction(p, i, pmtInfId)),
      _currency: currency,
    };
  });
  const tree = {
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    Document: {
      '@xmlns': PAIN001_NAMESPACE,
      CstmrCdtTrfInitn: {
        GrpHdr: {
          MsgId: spsId(input.messageId),
          CreDtTm: isoDateTime(input.createdAt),
          NbOfTxs: String(input.payments.length),
          CtrlSum: sum(input.payments).toFixed(),
          InitgPty: { Nm: spsText(input.debtorName, 70) },
        },
        PmtInf: paymentInfos.map(({ _currency, ...info }) => info),
      },
    },
  };
  return builder.build(tree) as string;
}
