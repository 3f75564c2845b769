/**
 * bank_transaction.matched commits with the match it tells of: a camt.054 credit carrying an
 * invoice's QR reference is imported, paid and matched, and the event names that payment, after
 * the payment's own events. An import that fails after the match was written leaves neither
 * the match nor any event; a match the payments module refuses (closed period) and an amount
 * that pays nothing exactly leave the transaction unmatched and no matched event; the sequence
 * has no gap.
 */
import t from 'tap';
import { fixture } from '../../../test/fixtures/bank/support.ts';
import { bankSetup } from '../../../test/fixtures/bank/setup.ts';

interface Event {
  id: string;
  type: string;
  subject: string;
  data: {
    actor: { via: string; id: string | null };
    resource: { type: string; id: number | string };
    snapshot: Record<string, unknown>;
  };
}

/**
 * A statement of three credits of which one pays an invoice: each transaction, then the payment
 * and what it paid, then the match.
 */
const ONE_MATCH_OF_THREE = [
  'bank_transaction.imported',
  'bank_transaction.imported',
  'bank_transaction.imported',
  'payment.recorded',
  'invoice.paid',
  'bank_transaction.matched',
];

t.test('bank_transaction.matched commits with the match; refused and failed matches leave none', async (t) => {
  const s = await bankSetup(t);
  const feed = async (after = 0) => (await s.api('GET', `/events?limit=500&after=${after}`)).body as Event[];
  const matched = async () => (await feed()).filter((e) => e.type === 'bank_transaction.matched');
  const last = async () => Number((await feed()).at(-1)?.id ?? 0);
  const csv = (...lines: string[]) =>
    s.send(
      ['date,amount,currency,counterparty,iban,reference,description', ...lines].join('\n'),
      'text/csv',
      `?account=${s.bankAccountId}`,
    );

  const a = await s.postInvoice(100); // 108.10, the camt.054 fixture's QR credit
  const b = await s.postInvoice(200); // 216.20
  const c = await s.postInvoice(50); // 54.05

  // the worked case: the credit with a's QR reference pays a
  const before = await last();
  const notification = fixture('camt.054.001.08.xml').replace('000000000000000000000000011', a.qr_reference);
  const imported = await s.send(notification);
  t.equal(imported.status, 200, JSON.stringify(imported.body));
  t.match(imported.body, { imported: 3, matched: 1 });
  const [tx] = (await s.api('GET', '/bank/transactions?status=matched')).body as {
    id: number;
    payment_id: number;
    document: { id: number };
  }[];
  t.equal(tx!.document.id, a.id, 'the transaction is matched to the invoice');
  const events = await feed(before);
  t.same(
    events.map((e) => e.type),
    ONE_MATCH_OF_THREE,
    "the import's events: each transaction, then the payment and what it paid, then the match",
  );
  const match = events.at(-1)!;
  t.match(match, {
    subject: `/bank/transactions/${tx!.id}`,
    data: {
      actor: { via: 'api_key', id: String(s.co.apiKeyId) },
      resource: { type: 'bank_transaction', id: tx!.id },
      snapshot: { document_id: a.id, payment_id: tx!.payment_id },
    },
  });
  t.equal(events[3]!.data.resource.id, tx!.payment_id, 'payment.recorded names the same payment');
  t.same(
    Object.keys(match.data.snapshot).sort(),
    ['document_id', 'payment_id'],
    'the snapshot is what docs/events.md lists',
  );

  // an import that fails after its match was written (the audit entry, its last write, refused): nothing stays
  const trigger = `refuse_bank_import_${s.co.company.id}`;
  await s.ledger.db.raw(`create function ${trigger}() returns trigger language plpgsql as $$
    begin raise exception 'bank import refused by the test'; end $$`);
  await s.ledger.db.raw(`create trigger ${trigger} before insert on audit_log for each row
    when (new.company_id = ${s.co.company.id} and new.entity = 'bank_import') execute function ${trigger}()`);
  const failedAt = await last();
  const failed = await csv(`2024-04-08,216.20,CHF,Globex Corp,,,${b.invNumber}`);
  await s.ledger.db.raw(`drop trigger ${trigger} on audit_log; drop function ${trigger}()`);
  t.equal(failed.status, 500, 'the failed write fails the import');
  t.same(await feed(failedAt), [], 'no event of the failed import, not even its match');
  t.equal((await s.api('GET', `/arap/invoice/customer/${b.id}`)).body.payment_status, 'open', 'b is not paid');
  t.equal((await s.api('GET', '/bank/transactions?amount=216.2')).body.length, 0, 'and the transaction is gone');

  // after the closing date, b's payment is refused (it stays unmatched) and c's by number is matched; a partial
  // amount pays nothing
  t.equal((await s.api('POST', '/system/close_books', { date: '2024-04-30' })).status, 200);
  const closedAt = await last();
  const mixed = await csv(
    `2024-04-10,216.20,CHF,Globex Corp,,,${b.invNumber}`,
    `2024-05-10,54.05,CHF,Globex Corp,,,${c.invNumber}`,
    `2024-05-11,216.00,CHF,Globex Corp,,,${b.invNumber} less fees`,
  );
  t.equal(mixed.status, 200, JSON.stringify(mixed.body));
  t.match(mixed.body, { imported: 3, matched: 1 });
  const rows = (await s.api('GET', '/bank/transactions?sort=date&from=2024-04-10')).body as {
    id: number;
    status: string;
    payment_id: number | null;
  }[];
  t.same(
    rows.map((r) => r.status),
    ['unmatched', 'matched', 'unmatched'],
  );
  const mixedEvents = await feed(closedAt);
  t.same(
    mixedEvents.map((e) => e.type),
    ONE_MATCH_OF_THREE,
    "only c's payment and match; the refused payment and the partial amount leave no event",
  );
  t.match(mixedEvents.at(-1)!.data, {
    resource: { id: rows[1]!.id },
    snapshot: { document_id: c.id, payment_id: rows[1]!.payment_id },
  });
  t.equal((await s.api('GET', `/arap/invoice/customer/${b.id}`)).body.payment_status, 'open');
  t.equal((await matched()).length, 2, 'two matches, two events');

  const ids = (await feed()).map((e) => Number(e.id));
  t.same(
    ids,
    ids.map((_, i) => i + 1),
    'numbered without gaps: the failed import and the refused payment gave their numbers back',
  );
});
