/**
 * Accounting area, the books themselves: fiscal years (REST `/system/fiscal_years`), journal
 * entries (`/gl/transactions`) and the general ledger of one account (`/gl/ledger`).
 */
import { contracts, requestsPosting, type JournalEntryInput } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { isRecord } from './isRecord.ts';
import { idOf, plural } from './summaries.ts';

const postedOrDraft = (input: Record<string, unknown>) =>
  requestsPosting(input as Pick<JournalEntryInput, 'pending'>) ? 'posted' : 'a draft';

/**
 * The read tools; the catalogue lists the report tools (tools/reports.ts) after them, then journalWriteTools
 * (docs/mcp.md order).
 */
export const journalTools: ToolDeclaration[] = [
  {
    name: 'list_fiscal_years',
    title: 'Fiscal years',
    description: 'Fiscal years with start, end and whether each is closed.',
    area: 'accounting',
    access: 'read',
    contract: contracts.listFiscalYears,
    listKey: 'fiscal_years',
    summary: (result) => `${plural(Array.isArray(result) ? result.length : 0, 'fiscal year')}.`,
  },
  {
    name: 'list_journal_entries',
    title: 'List journal entries',
    description: 'Find journal entries (bookings without a customer or vendor) by date, reference or status.',
    area: 'accounting',
    access: 'read',
    contract: contracts.listJournalEntries,
    listKey: 'journal_entries',
    rowsAs: 'get_journal_entry',
    summary: (result) => {
      const n = Array.isArray(result) ? result.length : 0;
      return `Found ${n} journal ${n === 1 ? 'entry' : 'entries'}.`;
    },
  },
  {
    name: 'get_journal_entry',
    title: 'Get journal entry',
    description: 'One journal entry with its debit and credit lines.',
    area: 'accounting',
    access: 'read',
    contract: contracts.getJournalEntry,
    params: { id: 'journal entry id' },
    summary: (result, input) =>
      `Journal entry ${idOf(result, input)}` +
      `${isRecord(result) && typeof result.reference === 'string' ? ` (${result.reference})` : ''}.`,
  },
  {
    name: 'list_ledger_lines',
    title: 'General ledger of an account',
    description: "One account's posted lines in a period, with opening, running and closing balance.",
    area: 'accounting',
    access: 'read',
    contract: contracts.getLedger,
    summary: (result) => {
      if (!isRecord(result)) return 'Ledger lines.';
      const lines = Array.isArray(result.lines) ? result.lines.length : 0;
      return (
        `Account ${String(result.account)}: opening ${String(result.opening)}, ${plural(lines, 'line')} of ` +
        `${String(result.total)}, closing ${String(result.closing)}.`
      );
    },
  },
];

export const journalWriteTools: ToolDeclaration[] = [
  {
    name: 'create_journal_entry',
    title: 'Create journal entry',
    description:
      'Book a journal entry: transdate and balanced debit/credit lines (no AR/AP control accounts). A draft unless ' +
      'pending "0".',
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
    description: 'Replace a draft journal entry with the complete entry; pending "0" posts it.',
    area: 'accounting',
    access: 'write',
    destructive: true,
    idempotent: true,
    contract: contracts.updateJournalEntry,
    params: { id: 'journal entry id' },
    inputAs: 'create_journal_entry',
    summary: (result, input) =>
      `Updated journal entry ${idOf(result, input)}` +
      `${isRecord(result) && typeof result.status === 'string' ? ` (${result.status})` : ''}.`,
  },
];
