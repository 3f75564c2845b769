/**
 * Document numbers with slashes ("2024/117", one of the most common numbering styles) are
 * taken as written, and the file names built from them are safe: the invoice PDF's
 * Content-Disposition, the e-mail's attachment, the stored document and its download.
 */
import t from 'tap';
import { fileNameFrom } from '@ledger/shared/fileNames';
import { CHART } from '../../../test/arapHelpers.ts';
import { pdfText } from '../../../test/support/pdf.ts';
import { startMailScenario } from '../../../test/support/mailLedger.ts';

t.test('file names from document numbers: no separator, quote, control character or leading dot', async (t) => {
  t.equal(fileNameFrom('2024/117', 'pdf'), '2024_117.pdf');
  t.equal(fileNameFrom('R\\2024\\5', 'pdf'), 'R_2024_5.pdf');
  t.equal(fileNameFrom('../../etc/passwd', 'pdf'), 'etc_passwd.pdf');
  t.equal(fileNameFrom('Rechnung "Zürich" 42', 'pdf'), 'Rechnung_Z_rich_42.pdf');
  t.equal(fileNameFrom('RE-2024.001', 'pdf'), 'RE-2024.001.pdf', 'a plain number is kept');
  t.equal(fileNameFrom('///', 'pdf', 'invoice'), 'invoice.pdf', 'nothing left: the fallback');
  t.equal(fileNameFrom('x'.repeat(300), 'pdf').length, 104);
});

t.test('an invoice numbered 2024/117: taken, printed as written, its files named 2024_117.pdf', async (t) => {
  const { api, ledger, co, smtp, customerId } = await startMailScenario(t);
  const created = await api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customerId,
    invNumber: '2024/117',
    ordNumber: 'A/1',
    poNumber: 'PO\\7',
    invDate: '2024-03-15',
    terms: 30,
    pending: '0',
    items: [
      { description: 'Work', quantity: 1, price: 100, account: CHART.customer.line, taxAccount: CHART.customer.tax },
    ],
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as number;
  const read = await api('GET', `/arap/invoice/customer/${id}`);
  t.equal(read.body.invNumber, '2024/117');
  t.equal(read.body.ordNumber, 'A/1');
  t.equal(read.body.poNumber, 'PO\\7');

  const res = await fetch(`${ledger.url}/client/${co.dataset}/arap/invoice/customer/${id}/pdf`, {
    headers: { 'X-API-Key': co.apiKey },
  });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-disposition'), 'inline; filename="2024_117.pdf"');
  t.match(await pdfText(Buffer.from(await res.arrayBuffer())), /2024\/117/, 'the PDF prints the number as written');

  const mailed = await api('POST', `/arap/invoice/customer/${id}/email`, {});
  t.equal(mailed.status, 202, JSON.stringify(mailed.body));
  for (let i = 0; i < 300 && smtp.received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  const mail = smtp.received[0]!;
  t.match(mail.parsed.subject, /Invoice 2024\/117 /, 'the subject names the number as written');
  t.equal(mail.parsed.attachments[0]?.filename, '2024_117.pdf', 'the attachment is named safely');

  const docs = await api('GET', '/documents');
  const stored = (docs.body as { id: number; name: string }[]).find((d) => d.name.endsWith('.pdf'));
  t.equal(stored?.name, '2024_117.pdf', 'the stored attachment');
  const download = await fetch(`${ledger.url}/client/${co.dataset}/documents/${stored!.id}/content`, {
    headers: { 'X-API-Key': co.apiKey },
  });
  t.match(download.headers.get('content-disposition'), /^attachment; filename="2024_117\.pdf"/);
});
