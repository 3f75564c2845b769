import { requestsPosting, type BatchProblem, type TransactionInput } from '@ledger/shared';
import { auditRow, recordAudits } from '../../db/audit.ts';
import { freeNumbers } from '../../db/sequences.ts';
import { BatchRefused, DomainError } from '../../domain/errors.ts';
import { recordEvents, type EventInput } from '../events/index.ts';
import { loadRuleContexts } from './ruleContext.ts';
import {
  check,
  createdDetails,
  createdSnapshot,
  documentEventOf,
  requireApprover,
  TRANSACTION_KIND,
  type WriteContext,
} from './service.ts';
import { insertDocumentBatch, numberTaken, sequenceKind, takenDocumentNumbers, type BatchDocument } from './store.ts';

/**
 * POST /arap/transactions/{vc}/batch (docs/batches.md): many AR/AP transactions of one side,
 * each booked exactly as createTransaction books it — the same rules (parties, accounts, tax
 * rates, closed period, approval permission and limit), the same rows, audit entry and events —
 * written all or nothing in the request's transaction. Every document is checked against one
 * snapshot before anything is written, so a refusal lists every bad one. Numbers the documents
 * leave out are taken from the side's sequence in one step, in input order; the rows go in with
 * one statement per table, the events in one call. Returns the ids in input order.
 */
export async function createTransactions(c: WriteContext, inputs: readonly TransactionInput[]): Promise<number[]> {
  // the actor's permission, not a document's fault: refused as a whole (403), as each single post would be
  if (inputs.some((i) => requestsPosting(i))) requireApprover(c.actor, c.vc);
  const contextOf = await loadRuleContexts(c.tx, c.company, c.vc, inputs);
  const problems: BatchProblem[] = [];
  const checked = inputs.map((input, index) => {
    try {
      return check(c, input, requestsPosting(input), contextOf(input));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      problems.push({ index, field: err.field ?? '', code: err.code, message: err.message });
      return undefined;
    }
  });
  const given = inputs.flatMap((i) => (i.invNumber === undefined ? [] : [i.invNumber]));
  const taken = await takenDocumentNumbers(c.tx, c.company.id, c.vc, given);
  const seen = new Set<string>();
  inputs.forEach(({ invNumber }, index) => {
    if (invNumber === undefined) return;
    // one problem per document, the first the single endpoint would answer: its rules come before its number
    if (checked[index] !== undefined && (taken.has(invNumber) || seen.has(invNumber))) {
      const { code, message, field } = numberTaken(invNumber);
      const said = taken.has(invNumber) ? message : `Document number ${invNumber} is used twice in the batch.`;
      problems.push({ index, field: field ?? '/invNumber', code, message: said });
    }
    seen.add(invNumber);
  });
  if (problems.length > 0) throw new BatchRefused(problems.sort((a, b) => a.index - b.index));

  const count = inputs.length - given.length;
  const numbers = await freeNumbers(c.tx, c.company, sequenceKind(c.vc), count, seen, (candidates) =>
    takenDocumentNumbers(c.tx, c.company.id, c.vc, candidates),
  );
  const docs: BatchDocument[] = inputs.map((input, i) => {
    const { resolved, computed } = checked[i]!;
    return {
      invNumber: input.invNumber ?? numbers.shift()!,
      resolved,
      posting: computed,
      fields: {
        documentNumber: input.documentNumber ?? null,
        description: input.description ?? null,
        status: requestsPosting(input) ? 'posted' : 'draft',
        typeColumns: { type: TRANSACTION_KIND.type },
      },
    };
  });
  const ids = await insertDocumentBatch(c.tx, c.company.id, c.vc, docs, new Date());
  const lost = ids.flatMap((id, index) => (id === undefined ? [index] : []));
  if (lost.length > 0) {
    // a number given by hand to a document created meanwhile: nothing of the batch stays
    throw new BatchRefused(
      lost.map((index) => ({ index, field: '/invNumber', ...problemOf(numberTaken(docs[index]!.invNumber)) })),
    );
  }

  const entity = TRANSACTION_KIND.entity(c.vc);
  await recordAudits(
    c.tx,
    docs.map((d, i) => {
      const { status } = d.fields;
      const details = { invNumber: d.invNumber, ...createdDetails(d.resolved, d.posting, status, 0) };
      return auditRow(
        c.company.id,
        c.actor,
        entity,
        ids[i]!,
        status === 'posted' ? 'create_posted' : 'create',
        details,
      );
    }),
  );
  // last, as one by one: the event sequence stays locked from here to the commit
  const events = docs.flatMap((d, i): EventInput[] => {
    const snapshot = createdSnapshot(d.invNumber, d.resolved, d.posting, d.fields.status);
    const created = documentEventOf(c.vc, 'created', ids[i]!, snapshot);
    return d.fields.status === 'posted' ? [created, documentEventOf(c.vc, 'posted', ids[i]!, snapshot)] : [created];
  });
  await recordEvents(c.tx, c.company.id, c.actor, events);
  return ids.map((id) => id!);
}

const problemOf = (err: DomainError) => ({ code: err.code, message: err.message });
