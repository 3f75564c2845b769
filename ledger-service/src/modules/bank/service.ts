import type { BodyOf, contracts } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { recordAudit } from '../../db/audit.ts';
import { conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { resolveBankAccount, type BankAccountDocument, type ResolvedBankAccount } from './rules.ts';
import {
  bankAccountUses,
  deleteBankAccountRow,
  findBankAccount,
  findChartAccount,
  insertBankAccount,
  lockBankAccount,
  reconciledBankLine,
  takenBy,
  updateBankAccount,
  type BankAccount,
  type BankLineBooking,
} from './store.ts';

/** The company's bank accounts: checked by rules.ts, one IBAN / QR-IBAN per account, every change audited. */

export async function bankAccountById(tx: Tx, companyId: number, id: number): Promise<BankAccount> {
  const account = await findBankAccount(tx, companyId, id);
  if (!account) throw notFound(`No bank account with id ${id}.`);
  return account;
}

async function resolve(
  tx: Tx,
  companyId: number,
  doc: BankAccountDocument,
  exceptId?: number,
): Promise<ResolvedBankAccount> {
  const resolved = resolveBankAccount(doc, await findChartAccount(tx, companyId, doc.account));
  const field = await takenBy(tx, companyId, resolved, exceptId);
  if (field)
    throw conflict(
      `Another bank account of the company has the ${field === '/iban' ? 'IBAN' : 'QR-IBAN'} ` +
        `${field === '/iban' ? resolved.iban : resolved.qr_iban}.`,
      field,
    );
  return resolved;
}

function auditDetails(a: ResolvedBankAccount) {
  return { name: a.name, iban: a.iban, qr_iban: a.qr_iban, currency: a.currency, account: a.account };
}

export async function addBankAccount(
  c: ServiceContext,
  input: BodyOf<typeof contracts.createBankAccount>,
): Promise<{ id: number }> {
  const resolved = await resolve(c.tx, c.company.id, {
    ...input,
    qr_iban: input.qr_iban ?? null,
    bic: input.bic ?? null,
  });
  const id = await insertBankAccount(c.tx, c.company.id, resolved);
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_account', id, 'create', auditDetails(resolved));
  return { id };
}

/** Only the fields sent change (null clears qr_iban or bic); the whole result is checked again. */
export async function changeBankAccount(
  c: ServiceContext,
  id: number,
  input: BodyOf<typeof contracts.updateBankAccount>,
): Promise<BankAccount> {
  const { id: sentId, ...fields } = input;
  if (sentId !== undefined && sentId !== id)
    throw ruleInvalid(`id ${sentId} is not the id of the path (${id}).`, '/id');
  await lockBankAccount(c.tx, c.company.id, id);
  const { id: _id, ...current } = await bankAccountById(c.tx, c.company.id, id);
  const resolved = await resolve(c.tx, c.company.id, { ...current, ...fields }, id);
  await updateBankAccount(c.tx, c.company.id, id, resolved);
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_account', id, 'update', {
    fields: Object.keys(fields),
    ...auditDetails(resolved),
  });
  return bankAccountById(c.tx, c.company.id, id);
}

/** Deletes a bank account nothing uses (bankAccountUses); else 409 naming what uses it. */
export async function removeBankAccount(c: ServiceContext, id: number): Promise<void> {
  await lockBankAccount(c.tx, c.company.id, id);
  const account = await bankAccountById(c.tx, c.company.id, id);
  const uses = await bankAccountUses(c.tx, c.company.id, id);
  if (uses.length > 0)
    throw conflict(`Bank account ${id} (${account.iban}) is in use and cannot be deleted: ${uses.join(', ')}.`);
  await deleteBankAccountRow(c.tx, c.company.id, id);
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_account', id, 'delete', {
    name: account.name,
    iban: account.iban,
  });
}

/**
 * A booking of a reconciled bank line stays until that reconciliation is undone (docs/bank.md
 * "Reconciliation"): reversing the journal entry or payment (`what`, e.g. "Journal entry 12")
 * is refused with 409, naming the line and how to undo the reconciliation.
 */
export async function refuseIfReconciled(
  tx: Tx,
  companyId: number,
  what: string,
  booking: BankLineBooking,
): Promise<void> {
  const line = await reconciledBankLine(tx, companyId, booking);
  if (!line) return;
  throw conflict(
    `${what} books bank line ${line.id}, reconciled up to ${line.reconciled_on}: ` +
      `undo that reconciliation first (DELETE /bank/accounts/${line.bank_account_id}/reconciliation` +
      `?date=${line.reconciled_on}).`,
  );
}
