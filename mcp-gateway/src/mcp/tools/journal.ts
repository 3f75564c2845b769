/**
 * Accounting area, the books themselves: fiscal years (REST `/system/fiscal_years`), journal
 * entries (`/gl/transactions`) and the general ledger of one account (`/gl/ledger`).
 */
import { contracts, requestsPosting, type JournalEntryInput } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { isRecord } from './isRecord.ts';
import { idOf, plural } from './summaries.ts';

const ENTRY_SHAPE =
  'Booked exactly as sent: give transdate and 2–500 lines, each with an account number and either debit or credit ' +
  '(above 0); the debits must equal the credits (else the error unbalanced names the difference). Receivable and ' +
  'payable control accounts (links AR / AP) are refused: use invoices, bills and payments for those. For a foreign ' +
  'currency send curr and exchangerate (rate against the base currency). reference is the entry\'s number (from the GL ' +
  'sequence when omitted).';

const postedOrDraft = (input: Record<string, unknown>) =>
  requestsPosting(input as Pick<JournalEntryInput, 'pending'>) ? 'posted' : 'a draft';

/** The read tools; the catalogue lists the report tools (tools/reports.ts) after them, then journalWriteTools (DESIGN.md §6 order). */
export const journalTools: ToolDeclaration[] = [
  {
    name: 'list_fiscal_years',
    title: 'Fiscal years',
    description: 'The fiscal years (calendar years) from the first posting to the current year, each with start, end and whether it is closed (its result booked to retained earnings and the period locked).',
    area: 'accounting',
    access: 'read',
    contract: contracts.listFiscalYears,
    listKey: 'fiscal_years',
    summary: (result) => `${plural(Array.isArray(result) ? result.length : 0, 'fiscal year')}.`,
  },
  {
    name: 'list_journal_entries',
    title: 'List journal entries',
    description: 'Journal entries (bookings without a customer or vendor) by date range (from/to on transdate), reference or status (draft, posted, reversed), ordered by date; each with its totals. get_journal_entry gives the lines.',
    area: 'accounting',
    access: 'read',
    contract: contracts.listJournalEntries,
    listKey: 'journal_entries',
    summary: (result) => {
      const n = Array.isArray(result) ? result.length : 0;
      return `Found ${n} journal ${n === 1 ? 'entry' : 'entries'}.`;
    },
  },
  {
    name: 'get_journal_entry',
    title: 'Get journal entry',
    description: 'One journal entry by id: its lines with debit and credit in the entry currency and in the base currency, status, reversal links, attached files.',
    area: 'accounting',
    access: 'read',
    contract: contracts.getJournalEntry,
    params: { id: 'journal entry id' },
    summary: (result, input) => `Journal entry ${idOf(result, input)}${isRecord(result) && typeof result.reference === 'string' ? ` (${result.reference})` : ''}.`,
  },
  {
    name: 'list_ledger_lines',
    title: 'General ledger of an account',
    description: 'The posted lines of one account (account number) from `from` to `to`: the opening balance before `from`, each line with date, debit, credit, running balance and its source document (kind, id, number), and the closing balance. Amounts in the base currency, debit positive. Paged with limit/offset.',
    area: 'accounting',
    access: 'read',
    contract: contracts.getLedger,
    summary: (result) => {
      if (!isRecord(result)) return 'Ledger lines.';
      const lines = Array.isArray(result.lines) ? result.lines.length : 0;
      return `Account ${String(result.account)}: opening ${String(result.opening)}, ${plural(lines, 'line')} of ${String(result.total)}, closing ${String(result.closing)}.`;
    },
  },
];

export const journalWriteTools: ToolDeclaration[] = [
  {
    name: 'create_journal_entry',
    title: 'Create journal entry',
    description: `Create a journal entry. Without pending it is saved as a draft (not in the books); pending "0" posts it at once. ${ENTRY_SHAPE}`,
    area: 'accounting',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createJournalEntry,
    summary: (result, input) => `Created journal entry ${idOf(result, input)} as ${postedOrDraft(input)}.`,
  },
  {
    name: 'update_journal_entry',
    title: 'Update journal entry',
    description: `Replace a draft journal entry: send the complete entry (the lines are replaced); pending "0" posts it. Posted entries cannot be changed. ${ENTRY_SHAPE}`,
    area: 'accounting',
    access: 'write',
    destructive: true,
    idempotent: true,
    contract: contracts.updateJournalEntry,
    params: { id: 'journal entry id' },
    summary: (result, input) => `Updated journal entry ${idOf(result, input)}${isRecord(result) && typeof result.status === 'string' ? ` (${result.status})` : ''}.`,
  },
];
