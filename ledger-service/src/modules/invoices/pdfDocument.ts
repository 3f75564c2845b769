import type { FromSchema } from 'json-schema-to-ts';
import { isLanguage, type invoiceReadSchema, type Language } from '@ledger/shared';
import { fileNameFrom } from '@ledger/shared/fileNames';
import { notFound } from '../../domain/errors.ts';
import { getCompanyProfile, getInvoiceBankAccount } from '../company/index.ts';
import { getParty } from '../parties/index.ts';
import { renderInvoicePdf, type InvoicePdfInput, type InvoicePdfParty } from './pdf.ts';
import { invoiceById, type InvoiceContext } from './service.ts';
import { documentNumberOf } from './reads.ts';

/**
 * `GET /arap/invoice/{vc}/{id}/pdf`: the invoice's (or credit note's) read shape, its party, the company profile and
 * invoice bank account, rendered in the language asked for, else the party's, else the company's.
 */

type InvoiceRead = FromSchema<typeof invoiceReadSchema>;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/**
 * The party's address as the PDF takes it (parties keep the street name in `address1`, the house number in `street`).
 */
function partyOf(party: Record<string, unknown>, fallbackName: string): InvoicePdfParty {
  return {
    name: text(party.name) ?? fallbackName,
    address: {
      street: text(party.address1),
      houseNumber: text(party.street),
      zip: text(party.zipcode),
      city: text(party.city),
      country: text(party.country),
    },
  };
}

/** The language a document is written in: asked for (`?language=`), else the party's, else the company's. */
export function documentLanguage(
  asked: Language | undefined,
  party: Record<string, unknown> | undefined,
  company: { language: Language },
): Language {
  if (asked) return asked;
  return isLanguage(party?.language) ? party.language : company.language;
}

export async function invoicePdf(
  c: InvoiceContext,
  id: number,
  asked?: Language,
): Promise<{ fileName: string; pdf: Buffer; language: Language }> {
  const read = (await invoiceById(c, id)) as InvoiceRead;
  return documentPdf(c, read, { asked, kind: read.type === 'credit_note' ? 'credit_note' : 'invoice' });
}

/** What rendering a document reads with: its transaction, company and side (the mail sender has no request). */
export type DocumentPdfContext = Pick<InvoiceContext, 'tx' | 'vc'> & { company: Pick<InvoiceContext['company'], 'id'> };

/**
 * Any document with an invoice's read shape as PDF: an invoice, a credit note, or a quote (its read shape with
 * `valid_until`); `fallbackName` names the file when the document has no number.
 */
export async function documentPdf(
  c: DocumentPdfContext,
  read: InvoiceRead,
  opts: {
    asked?: Language;
    kind: 'invoice' | 'credit_note' | 'quote' | 'reminder';
    validUntil?: string;
    number?: string;
    reminderLevel?: 1 | 2 | 3;
  },
): Promise<{ fileName: string; pdf: Buffer; language: Language }> {
  const { asked } = opts;
  const id = read.id ?? 0;
  const partyId = read[`${c.vc}_id`];
  const party = typeof partyId === 'number' ? await getParty(c.tx, c.company.id, c.vc, partyId) : undefined;
  if (!party) throw notFound(`${c.vc} of invoice ${id} not found`);
  const company = await getCompanyProfile(c.tx, c.company.id);
  const bank = await getInvoiceBankAccount(c.tx, c.company.id);
  const invNumber = opts.number ?? read.invNumber ?? String(id);

  const language = documentLanguage(asked, party, company);
  const creditOf =
    typeof read.credit_of === 'number' ? await documentNumberOf(c.tx, c.company.id, read.credit_of) : null;
  const input: InvoicePdfInput = {
    language,
    company: {
      name: company.name,
      address: {
        street: company.street,
        houseNumber: company.house_number,
        zip: company.zip,
        city: company.city,
        country: company.country,
      },
      vatNumber: company.vat_number,
      email: company.email,
    },
    party: partyOf(party, read.name ?? ''),
    bankAccount: bank ? { iban: bank.iban, qrIban: bank.qr_iban ?? null } : null,
    invoice: {
      vc: c.vc,
      kind: opts.kind,
      ...(opts.reminderLevel ? { reminderLevel: opts.reminderLevel } : {}),
      validUntil: opts.validUntil ?? null,
      creditOf,
      reason: read.reason ?? null,
      invNumber,
      invDate: read.invDate ?? '',
      dueDate: read.dueDate ?? null,
      currency: read.currency ?? '',
      description: read.description ?? null,
      ordNumber: read.ordNumber ?? null,
      poNumber: read.poNumber ?? null,
      items: (read.items ?? []).map((i) => ({
        description: i.description ?? null,
        quantity: i.quantity ?? 0,
        unit: i.unit ?? null,
        price: i.price ?? 0,
        discount: i.discount ?? null,
        amount: i.amount ?? 0,
      })),
      taxes: (read.taxes ?? []).map((t) => ({ rate: t.rate ?? null, base: t.base ?? 0, amount: t.amount ?? 0 })),
      netAmount: read.netAmount ?? 0,
      taxAmount: read.taxAmount ?? 0,
      grossAmount: read.grossAmount ?? 0,
      open: read.open ?? null,
      terms: read.terms ?? null,
      notes: read.notes ?? null,
      qr_reference: read.qr_reference ?? null,
    },
  };
  // the number as written ("2024/117") in the PDF, a safe name for the file ("2024_117.pdf")
  return { fileName: fileNameFrom(invNumber, 'pdf', opts.kind), pdf: await renderInvoicePdf(input), language };
}
