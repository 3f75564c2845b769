/**
 * A dunning run's reminders are rendered by the mail sender, not in the run (docs/invoices.md "Dunning
 * runs", issue 33), on real Postgres, pg-boss and a loopback SMTP server: the run queues the e-mail with
 * its PDF described; a payment and a change of the level's text after the run do not change it; the
 * sender — another ledger process — renders the reminder as the run recorded it, in the customer's
 * language (title, level text, open amount plus fee, the QR payment part over both with the invoice's
 * reference), stores it as the attachment's document and sends it.
 */
import { createHash, randomBytes } from 'node:crypto';
import t from 'tap';
import { CHART } from '../../../test/arapHelpers.ts';
import { apiClient, createTestCompany, testConfig } from '../../../test/helpers.ts';
import { FAST_RETRY } from '../../../test/support/mailLedger.ts';
import { decodeQrCodes, parseSwissQr, pdfPagePng, pdfText } from '../../../test/support/pdf.ts';
import { startSmtpTestServer } from '../../../test/support/smtpServer.ts';
import { MAIL_QUEUE_OPTIONS } from '../../db/migrations/025_mail_queue.ts';
import { dropQueue, makeQueue } from '../../db/queue.ts';
import { startLedger } from '../../server.ts';

const text = (de: string) => ({ de, fr: 'Veuillez payer.', it: 'Vi preghiamo di pagare.', en: 'Please pay.' });

t.test('the mail sender renders the reminder as the run recorded it, in the customer language', async (t) => {
  const queue = `mail_dunning_${randomBytes(6).toString('hex')}`;
  // the ledger that runs: no mail worker, so the message waits in the queue
  const config = testConfig({ mailQueue: queue });
  const ledger = await startLedger({ config, mail: false, inbox: false, webhooks: false });
  t.teardown(() => ledger.close());
  // under the queue DDL lock (makeQueue): a test dropping its queue meanwhile could deadlock with a bare create
  await makeQueue(ledger.db, queue, MAIL_QUEUE_OPTIONS);
  t.teardown(() => dropQueue(ledger.db, queue));
  const co = await createTestCompany({ ...ledger, config }, { swissInvoicing: true });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const customer = await api('POST', '/arap/customer', {
    name: 'Beispiel GmbH',
    email: 'billing@beispiel.test',
    address1: 'Marktgasse',
    street: '28',
    zipcode: '3011',
    city: 'Bern',
    country: 'CH',
    language: 'de',
  });
  const invoice = await api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customer.body.id,
    invDate: '2024-03-15',
    terms: 30,
    pending: '0',
    items: [{ description: 'Beratung', quantity: 2, price: 150, account: CHART.customer.line, taxAccount: '2200' }],
  });
  t.equal(invoice.status, 201, JSON.stringify(invoice.body));
  const invoiceId = invoice.body.id as number;
  const levels = (de: string) => [{ days: 5, fee: 20, text: text(de) }];
  const set = await api('POST', '/system/company', {
    dunning: { levels: levels('Bitte zahlen Sie bis zum neuen Termin.') },
    reminder_fee_account: CHART.customer.line2,
  });
  t.equal(set.status, 200, JSON.stringify(set.body));

  const run = await api('POST', '/arap/dunning/run', { date: '2024-04-20' });
  t.equal(run.status, 200, JSON.stringify(run.body));
  t.match(run.body.items, [{ invoice_id: invoiceId, level: 1, fee: 20, open: 324.3 }]);
  const messageId = run.body.items[0].message_id as number;
  t.ok(messageId, 'queued');
  t.same((await api('GET', '/documents?source=email')).body, [], 'no PDF rendered in the run');

  // after the run, before the sending: a payment, and the level's text changed
  const paid = await api('POST', '/arap/payment/customer', {
    document_id: invoiceId,
    amount: 100,
    account: '1020',
    date: '2024-04-21',
  });
  t.equal(paid.status, 201, JSON.stringify(paid.body));
  await api('POST', '/system/company', { dunning: { levels: levels('Ein anderer Text.') } });

  // the sender: another ledger process on the same queue
  const smtp = await startSmtpTestServer();
  t.teardown(() => smtp.stop());
  const sender = await startLedger({
    config: testConfig({ mailQueue: queue, smtpUrl: smtp.url }),
    mail: FAST_RETRY,
    inbox: false,
    webhooks: false,
  });
  t.teardown(() => sender.close());
  while (smtp.received.length < 1) await new Promise((r) => setTimeout(r, 100));
  const mail = smtp.received[0]!;
  t.match(mail.parsed.subject, /^Zahlungserinnerung von /, 'the subject in German');
  t.match(mail.parsed.text, /344\.30/, 'the text names open amount plus fee');
  const attachment = mail.parsed.attachments[0]!;
  t.match(attachment.filename, /^reminder-1-AR-\d+\.pdf$/);
  const pdf = Buffer.from(attachment.content as ArrayBuffer);
  const words = await pdfText(pdf);
  t.match(words, 'Zahlungserinnerung', 'the title in German');
  t.match(words, 'Mahngebühr', 'the fee line in German');
  t.match(words, /324\.30[\s\S]*20\.00[\s\S]*344\.30/, 'the open amount at the run, the fee and their total');
  t.match(words, 'Bitte zahlen Sie bis zum neuen Termin.', "the level's text as it was at the run");
  t.notMatch(words, 'Ein anderer Text.');
  t.match(words, /Fällig am:\s+2024-04-30/, 'the new due date: ten days after the run');
  const qr = parseSwissQr((await decodeQrCodes(await pdfPagePng(pdf)))[0]!);
  t.equal(qr.amount, '344.30', 'open amount at the run plus fee: the later payment does not change it');
  t.equal(qr.reference, (await api('GET', `/arap/invoice/customer/${invoiceId}`)).body.qr_reference);

  const documents = (await api('GET', '/documents?source=email')).body as { sha256: string; name: string }[];
  t.equal(documents.length, 1, 'the rendered PDF is stored as the attachment');
  t.equal(documents[0]!.sha256, createHash('sha256').update(pdf).digest('hex'), 'the bytes that were sent');
  t.equal(documents[0]!.name, attachment.filename);
});
