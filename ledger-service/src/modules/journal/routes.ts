import { contracts, journalBatchEntrySchema } from '@ledger/shared';
import { batchBody } from '../../kernel/batch.ts';
import { idParam } from '../../kernel/params.ts';
import { listHeaders, route, type RouteRequest } from '../../kernel/route.ts';
import { today } from '../../domain/period.ts';
import { collectFiles, transactionBody, optionalBody } from '../arap/index.ts';
import { listJournals, readLedger } from './reads.ts';
import {
  createJournalEntries,
  createJournalEntry,
  deleteJournalEntry,
  journalEntryById,
  journalFile,
  reverseJournalEntry,
  updateJournalEntry,
  type JournalContext,
} from './service.ts';

/** Journal entries `/gl/transactions` and the general ledger `/gl/ledger` (docs/journal.md). */

type Req = Pick<RouteRequest, 'ctx' | 'tx' | 'company' | 'actor'>;

const journalContext = (req: Req): JournalContext => ({
  tx: req.tx,
  company: req.company,
  actor: req.actor,
  fileUrlBase: `${req.ctx.protocol}://${req.ctx.host}/client/${req.company.dataset}/gl/transactions`,
});
const entryId = (req: { params: { id: string } }) => idParam(req.params.id, 'journal entry');

// JSON or multipart (the entry's JSON in the part "entry", read by the kernel as the contract declares it), `currency`
// refused as on AR/AP documents
const entryBody = transactionBody({ complete: false });

export const journalRoutes = [
  route(
    contracts.createJournalEntry,
    async (req) => {
      const { id } = await createJournalEntry(req, { input: req.body, files: collectFiles(req, req.body) });
      return { id };
    },
    { prepareBody: entryBody },
  ),
  route(
    contracts.createJournalEntries,
    async (req) => ({ ids: await createJournalEntries(req, req.body.transactions) }),
    // every document checked on its own, so the refusal lists each bad one (kernel/batch.ts)
    { prepareBody: batchBody(journalBatchEntrySchema) },
  ),
  route(
    contracts.updateJournalEntry,
    async (req) =>
      updateJournalEntry(journalContext(req), entryId(req), {
        input: req.body,
        files: collectFiles(req, req.body),
      }),
    { prepareBody: entryBody },
  ),
  route(contracts.getJournalEntry, async (req) => journalEntryById(journalContext(req), entryId(req))),
  route(contracts.deleteJournalEntry, async (req) => {
    await deleteJournalEntry(journalContext(req), entryId(req));
    return undefined;
  }),
  route(
    contracts.reverseJournalEntry,
    async (req) => {
      const { id } = await reverseJournalEntry(req, entryId(req), {
        date: req.body.date ?? today(),
        description: req.body.description,
      });
      return { id };
    },
    { prepareBody: optionalBody },
  ),
  route(contracts.listJournalEntries, async (req) => listJournals(req.tx, req.company.id, req.query)),
  route(contracts.downloadJournalFile, async (req) => {
    const file = await journalFile(req.tx, req.company.id, entryId(req), idParam(req.params.fileId, 'file'));
    req.ctx.attachment(file.name, { type: 'attachment' });
    req.ctx.type = file.media_type;
    return file.data;
  }),
  route(contracts.getLedger, async (req) => {
    const { ledger, total } = await readLedger(req.tx, req.company.id, req.query);
    // an object, not an array, so the kernel does not page it: the list headers are set here
    listHeaders(req.ctx, { rows: [], total }, req.query);
    return ledger;
  }),
];
