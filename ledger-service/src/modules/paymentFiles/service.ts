import type { BodyOf, ResponseOf, contracts } from '@ledger/shared';
import { Money, formatAmount } from '@ledger/shared';
import { isValidIBAN } from 'ibantools';
import type { Tx } from '../../db/knex.ts';
import { recordAudit } from '../../db/audit.ts';
import { conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { findBankAccountWithChart } from '../bank/index.ts';
import { buildPain001, type Payment } from './pain001.ts';
import {
  documentsInFiles,
  insertFile,
  insertItems,
  listFiles,
  lockDocuments,
  lockDueDocuments,
  readFileXml,
  setFileXml,
  type PayableDocument,
} from './store.ts';

/**
 * Payment files (docs/bank.md): one pain.001 payment per open vendor
 * document, for its open amount, to the document's vendor bank account, with its payment
 * reference as structured remittance (else its number as text). Documents are locked before
 * they are checked, and a unique index holds each document in one file only: two files
 * created at the same time cannot both pay a bill.
 */

type CreateInput = BodyOf<typeof contracts.createPaymentFile>;
type Created = ResponseOf<typeof contracts.createPaymentFile>;

const open = (d: PayableDocument) => new Money(d.amount).minus(d.paid);

/** Why a document cannot be paid by a file, or null. */
function refusal(d: PayableDocument): string | null {
  if (d.status !== 'posted' || d.reversal_of_id !== null)
    return `${d.inv_number} is ${d.reversal_of_id !== null ? 'a reversal' : d.status}, not a posted document`;
  if (!open(d).isPositive()) return `${d.inv_number} has nothing open`;
  if (d.vc_bank_id === null) return `${d.inv_number} has no vendor bank account (vc_bank_id)`;
  if (d.iban === null || !isValidIBAN(d.iban)) return `${d.inv_number} has no valid IBAN (${d.iban ?? 'none'})`;
  return null;
}

async function selectDocuments(c: ServiceContext, ids: readonly number[] | undefined): Promise<PayableDocument[]> {
  if (ids === undefined) {
    const due = await lockDueDocuments(c.tx, c.company.id);
    // documents another request put into a file while this one waited for their locks
    const taken = await documentsInFiles(
      c.tx,
      c.company.id,
      due.map((d) => d.id),
    );
    const docs = due.filter((d) => !taken.has(d.id));
    const refused = docs.map(refusal).filter((r): r is string => r !== null);
    if (refused.length > 0) throw ruleInvalid(`These documents cannot be paid: ${refused.join('; ')}.`);
    if (docs.length === 0)
      throw ruleInvalid(
        'No vendor documents are due: none is posted, open, flagged payment_file 1 with a vc_bank_id and in no ' +
          'file yet.',
      );
    return docs;
  }
  const docs = await lockDocuments(c.tx, c.company.id, ids);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const missing = ids.findIndex((id) => !byId.has(id));
  if (missing >= 0) throw ruleInvalid(`No vendor document with id ${ids[missing]}.`, `/document_ids/${missing}`);
  const refused = ids.map((id) => refusal(byId.get(id)!));
  const first = refused.findIndex((r) => r !== null);
  if (first >= 0)
    throw ruleInvalid(
      `These documents cannot be paid: ${refused.filter((r) => r !== null).join('; ')}.`,
      `/document_ids/${first}`,
    );
  const taken = await documentsInFiles(c.tx, c.company.id, ids);
  if (taken.size > 0) {
    const named = ids.filter((id) => taken.has(id)).map((id) => `${byId.get(id)!.inv_number} (file ${taken.get(id)})`);
    throw conflict(
      `Already in a payment file: ${named.join(', ')}. A document goes into one file only.`,
      `/document_ids/${ids.findIndex((id) => taken.has(id))}`,
    );
  }
  return ids.map((id) => byId.get(id)!);
}

export async function createPaymentFile(c: ServiceContext, input: CreateInput): Promise<Created> {
  const bank = await findBankAccountWithChart(c.tx, c.company.id, input.bank_account_id);
  if (!bank) throw ruleInvalid(`No bank account with id ${input.bank_account_id}.`, '/bank_account_id');
  const docs = await selectDocuments(c, input.document_ids);
  const total = docs.reduce((s, d) => s.plus(open(d)), new Money(0));
  const fileId = await insertFile(c.tx, c.company.id, {
    bankAccountId: bank.id,
    executionDate: input.execution_date,
    count: docs.length,
    total: total.toFixed(),
    createdBy: c.actor.userId,
  });
  const messageId = `PF-${fileId}`;
  const payments: (Payment & { documentId: number })[] = docs.map((d, i) => ({
    documentId: d.id,
    endToEndId: `${messageId}-${i + 1}`,
    amount: open(d),
    currency: d.currency,
    creditorName: d.account_name ?? d.party_name,
    creditorIban: d.iban!,
    creditorBic: d.bic,
    reference: d.payment_reference,
    text: d.inv_number,
  }));
  try {
    await insertItems(
      c.tx,
      c.company.id,
      fileId,
      payments.map((p) => ({
        documentId: p.documentId,
        endToEndId: p.endToEndId,
        amount: p.amount.toFixed(),
        currency: p.currency,
      })),
    );
  } catch (err) {
    // the unique index: a concurrent file took a document between the check and the insert
    if ((err as { code?: string }).code === '23505')
      throw conflict('A document of this file was put into another payment file at the same time; try again.');
    throw err;
  }
  const xml = buildPain001({
    messageId,
    createdAt: new Date(),
    executionDate: input.execution_date,
    debtorName: c.company.name,
    debtorIban: bank.iban,
    debtorBic: bank.bic,
    payments,
  });
  await setFileXml(c.tx, c.company.id, fileId, messageId, xml);
  await recordAudit(c.tx, c.company.id, c.actor, 'payment_file', fileId, 'create', {
    bank_account_id: bank.id,
    execution_date: input.execution_date,
    count: docs.length,
    documents: docs.map((d) => d.inv_number),
    totals: [...new Set(payments.map((p) => p.currency))].map((cur) =>
      formatAmount(
        payments.filter((p) => p.currency === cur).reduce((s, p) => s.plus(p.amount), new Money(0)),
        cur,
      ),
    ),
  });
  return { id: fileId, count: docs.length, total: total.toNumber() };
}

export async function paymentFileXml(tx: Tx, companyId: number, id: number): Promise<{ name: string; xml: string }> {
  const file = await readFileXml(tx, companyId, id);
  if (!file) throw notFound(`No payment file with id ${id}.`);
  return { name: `pain001-${file.message_id}.xml`, xml: file.xml };
}

export { listFiles as listPaymentFiles };
