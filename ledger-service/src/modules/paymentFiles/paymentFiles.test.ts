import t from 'tap';
import { XMLParser } from 'fast-xml-parser';
import { apiClient } from '../../../test/helpers.ts';
import { validateXsd } from '../../../test/fixtures/bank/support.ts';
import { bankSetup, COMPANY_IBAN } from '../../../test/fixtures/bank/setup.ts';

const QR_IBAN_VENDOR = 'CH44 3199 9123 0008 8901 2';
const parse = (xml: string) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    isArray: (n) => ['PmtInf', 'CdtTrfTxInf'].includes(n),
  }).parse(xml);

async function download(s: Awaited<ReturnType<typeof bankSetup>>, id: number) {
  const res = await s.api('GET', `/bank/payment_files/${id}`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/xml/);
  t.match(res.headers.get('content-disposition'), new RegExp(`attachment; filename="pain001-PF-${id}.xml"`));
  const valid = await validateXsd(res.body as string, 'pain.001.001.09.ch.03.xsd');
  t.ok(valid.valid, `XSD-valid: ${valid.errors.slice(0, 5).join('; ')}`);
  return { xml: res.body as string, doc: parse(res.body as string) };
}

t.test(
  'payment file: open flagged bills, open amounts, references, grouped by currency; XSD-valid; each bill once',
  async (t) => {
    const s = await bankSetup(t);
    const qrBank = await s.api('POST', `/arap/vendor/${s.vendorId}/bank_accounts`, {
      iban: QR_IBAN_VENDOR,
      name: 'Müller & Söhne <QR>',
    });
    const plain = await s.postBill(500);
    const qr = await s.postBill(1949.75, {
      vc_bank_id: qrBank.body.id,
      paymentReference: '21 00000 00003 13947 14300 09017',
    });
    const scor = await s.postBill(300, { paymentReference: 'RF18 5390 0754 7034' });
    const eur = await s.postBill(1000, { curr: 'EUR', exchangerate: 0.95 });
    const partlyPaid = await s.postBill(800);
    t.equal(
      (
        await s.api('POST', '/arap/payment/vendor', {
          document_id: partlyPaid.id,
          date: '2024-03-10',
          amount: 300,
          account: '1020',
        })
      ).status,
      201,
    );
    await s.postBill(50, { payment_file: 0 });
    await s.api('POST', '/arap/transaction/vendor', {
      vendor_id: s.vendorId,
      invDate: '2024-03-01',
      payment_file: 1,
      vc_bank_id: s.vendorBankId,
      lines: [{ account: '6500', amount: 70 }],
    });

    const created = await s.api('POST', '/bank/payment_files', {
      bank_account_id: s.bankAccountId,
      execution_date: '2024-04-10',
    });
    t.equal(created.status, 201, JSON.stringify(created.body));
    t.same(
      created.body,
      { id: created.body.id, count: 5, total: 500 + 1949.75 + 300 + 1000 + 500 },
      'the flagged, posted, open bills; not the draft nor the unflagged one',
    );

    const { doc } = await download(s, created.body.id);
    const init = doc.Document.CstmrCdtTrfInitn;
    t.match(init.GrpHdr, { MsgId: `PF-${created.body.id}`, NbOfTxs: '5', CtrlSum: '4249.75' });
    t.same(
      init.PmtInf.map(
        (p: { CdtTrfTxInf: { Amt: { InstdAmt: { '@Ccy': string } } }[]; ReqdExctnDt: { Dt: string } }) => [
          p.CdtTrfTxInf[0]!.Amt.InstdAmt['@Ccy'],
          p.CdtTrfTxInf.length,
          p.ReqdExctnDt.Dt,
        ],
      ),
      [
        ['CHF', 4, '2024-04-10'],
        ['EUR', 1, '2024-04-10'],
      ],
    );
    t.equal(init.PmtInf[0].DbtrAcct.Id.IBAN, COMPANY_IBAN);
    const txs = [...init.PmtInf[0].CdtTrfTxInf, ...init.PmtInf[1].CdtTrfTxInf];
    const byAmount = (a: string) =>
      txs.find((x: { Amt: { InstdAmt: { '#text': string } } }) => x.Amt.InstdAmt['#text'] === a);
    t.same(byAmount('500.00').RmtInf, { Ustrd: plain.invNumber }, 'no reference: the bill number as text');
    t.same(byAmount('1949.75').RmtInf.Strd.CdtrRefInf, {
      Tp: { CdOrPrtry: { Prtry: 'QRR' } },
      Ref: '210000000003139471430009017',
    });
    t.equal(byAmount('1949.75').CdtrAcct.Id.IBAN, 'CH4431999123000889012');
    t.equal(byAmount('1949.75').Cdtr.Nm, 'Müller & Söhne <QR>', 'the account holder, escaped in the file');
    t.same(byAmount('300.00').RmtInf.Strd.CdtrRefInf, { Tp: { CdOrPrtry: { Cd: 'SCOR' } }, Ref: 'RF18539007547034' });
    t.ok(byAmount('1000.00'), 'the EUR bill in EUR');
    t.ok(
      byAmount('500.00') &&
        txs.filter((x: { Amt: { InstdAmt: { '#text': string } } }) => x.Amt.InstdAmt['#text'] === '500.00').length ===
          2,
      'the partly paid bill for its open 500.00',
    );

    const list = await s.api('GET', '/bank/payment_files');
    t.equal(list.status, 200);
    t.match(list.body, [
      {
        id: created.body.id,
        bank_account_id: s.bankAccountId,
        execution_date: '2024-04-10',
        message_id: `PF-${created.body.id}`,
        count: 5,
        total: 4249.75,
      },
    ]);
    t.same(
      list.body[0].payments.map((p: { number: string; end_to_end_id: string }) => p.end_to_end_id),
      [1, 2, 3, 4, 5].map((n) => `PF-${created.body.id}-${n}`),
    );

    const again = await s.api('POST', '/bank/payment_files', {
      bank_account_id: s.bankAccountId,
      execution_date: '2024-04-11',
    });
    t.equal(again.status, 400, 'nothing left to pay');
    t.match(again.body.error.message, /No vendor documents are due/);
    const named = await s.api('POST', '/bank/payment_files', {
      bank_account_id: s.bankAccountId,
      execution_date: '2024-04-11',
      document_ids: [qr.id],
    });
    t.equal(named.status, 409, 'a bill in a file is not put into another');
    t.match(named.body.error.message, new RegExp(`${qr.invNumber} \\(file ${created.body.id}\\)`));
    t.equal(named.body.error.field, '/document_ids/0');

    // the bank pays the file: the debit with the payment's end-to-end id books the bill's payment
    const e2e = list.body[0].payments.find((p: { document_id: number }) => p.document_id === scor.id).end_to_end_id;
    const camt = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
<GrpHdr><MsgId>N1</MsgId><CreDtTm>2024-04-10T18:00:00</CreDtTm></GrpHdr>
<Ntfctn><Id>N1</Id><Acct><Id><IBAN>${COMPANY_IBAN}</IBAN></Id></Acct>
<Ntry><Amt Ccy="CHF">300.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>2024-04-10</Dt></BookgDt><AcctSvcrRef>D-1</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><Refs><EndToEndId>${e2e}</EndToEndId></Refs><Amt Ccy="CHF">300.00</Amt><CdtDbtInd>DBIT</CdtDbtInd>
</TxDtls></NtryDtls></Ntry>
</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
    t.ok((await validateXsd(camt, 'camt.054.001.08.xsd')).valid);
    const imported = await s.send(camt);
    t.match(imported.body, { imported: 1, matched: 1 }, 'the debit is matched by its end-to-end id');
    const bill = await s.api('GET', `/arap/transaction/vendor/${scor.id}`);
    t.equal(bill.body.payment_status, 'paid');
    t.match((await s.api('GET', '/bank/transactions')).body, [
      { status: 'matched', document: { id: scor.id, vc: 'vendor' } },
    ]);
    t.equal(eur.currency, 'EUR');
  },
);

t.test('payment files: refusals name the documents; who may', async (t) => {
  const s = await bankSetup(t);
  const ok = await s.postBill(100);
  const draft = await s.api('POST', '/arap/transaction/vendor', {
    vendor_id: s.vendorId,
    invDate: '2024-03-01',
    lines: [{ account: '6500', amount: 70 }],
  });
  const noBank = await s.api('POST', '/arap/transaction/vendor', {
    vendor_id: s.vendorId,
    invDate: '2024-03-01',
    pending: '0',
    lines: [{ account: '6500', amount: 70 }],
  });
  const noBankNumber = (await s.api('GET', `/arap/transaction/vendor/${noBank.body.id}`)).body.invNumber;
  const customerInvoice = await s.postInvoice(10);
  const create = (body: Record<string, unknown>) =>
    s.api('POST', '/bank/payment_files', { bank_account_id: s.bankAccountId, execution_date: '2024-04-10', ...body });

  let r = await create({ document_ids: [ok.id, noBank.body.id] });
  t.equal(r.status, 400);
  t.equal(r.body.error.field, '/document_ids/1');
  t.match(
    r.body.error.message,
    new RegExp(`${noBankNumber} has no vendor bank account`),
    'names the document without an IBAN',
  );
  r = await create({ document_ids: [draft.body.id] });
  t.match(r.body.error.message, /is draft, not a posted document/);
  r = await create({ document_ids: [customerInvoice.id] });
  t.equal(r.body.error.field, '/document_ids/0');
  t.match(r.body.error.message, /No vendor document/);
  // a vendor bank account whose IBAN was damaged in the database: refused by name too
  await s.q((tx) => tx('vendor_bank_accounts').where({ id: s.vendorBankId }).update({ iban: 'CH5800791123000889013' }));
  r = await create({});
  t.equal(r.status, 400);
  t.match(r.body.error.message, new RegExp(`${ok.invNumber} has no valid IBAN \\(CH5800791123000889013\\)`));
  r = await create({ bank_account_id: 999999 });
  t.equal(r.body.error.field, '/bank_account_id');
  r = await create({ document_ids: [ok.id, ok.id] });
  t.equal(r.status, 400, 'the same id twice');
  t.equal(await s.count('payment_files'), 0, 'nothing written');
  t.equal((await s.api('GET', '/bank/payment_files/999999')).status, 404);

  const viewer = await s.co.addMember('viewer');
  const asViewer = apiClient(s.ledger.url, s.co.dataset, viewer.apiKey);
  const denied = await asViewer('GET', '/bank/payment_files');
  t.equal(denied.status, 403);
  t.match(denied.body.error.message, 'bank.payment_files');
});

t.test('two concurrent payment files cannot both pay a bill', async (t) => {
  const s = await bankSetup(t);
  const bills = [await s.postBill(100), await s.postBill(200), await s.postBill(300)];
  const body = { bank_account_id: s.bankAccountId, execution_date: '2024-04-10' };
  const results = await Promise.all([
    s.api('POST', '/bank/payment_files', body),
    s.api('POST', '/bank/payment_files', body),
    s.api('POST', '/bank/payment_files', { ...body, document_ids: bills.map((b) => b.id) }),
  ]);
  t.equal(results.filter((r) => r.status === 201).length, 1, 'one file gets the bills');
  t.ok(
    results.filter((r) => r.status !== 201).every((r) => r.status === 400 || r.status === 409),
    'the others find nothing due (400) or the bills taken (409)',
  );
  t.equal(await s.count('payment_file_items'), 3);
});

t.test('1,000 payments with non-ASCII names and a foreign currency: one valid file', async (t) => {
  const s = await bankSetup(t);
  const names = ['Łódź Logistics Sp. z o.o.', 'Dvořák & Šťastný s.r.o.', 'ООО Ромашка', 'Café Crème Sàrl', '東京商事'];
  const vendors: { id: number; bank: number }[] = [];
  for (const [i, name] of names.entries()) {
    const v = await s.api('POST', '/arap/vendor', { name });
    const b = await s.api('POST', `/arap/vendor/${v.body.id}/bank_accounts`, {
      iban: i % 2 ? 'DE89 3704 0044 0532 0130 00' : 'CH58 0079 1123 0008 8901 2',
      name,
    });
    vendors.push({ id: v.body.id, bank: b.body.id });
  }
  // written in bulk through the API's own rules would take minutes; one insert of posted, flagged bills is what matters
  // here
  const accounts = await s.q((tx) => tx('accounts').whereIn('accno', ['2000']).select('id'));
  await s.q((tx) =>
    tx('arap_transactions').insert(
      Array.from({ length: 1000 }, (_, i) => {
        const v = vendors[i % vendors.length]!;
        return {
          company_id: s.co.company.id,
          vc: 'vendor',
          type: 'transaction',
          party_id: v.id,
          inv_number: `BULK-${i + 1}`,
          inv_date: '2024-03-01',
          currency: i % 4 === 0 ? 'EUR' : 'CHF',
          exchangerate: i % 4 === 0 ? '0.95' : '1',
          record_account_id: accounts[0]!.id,
          status: 'posted',
          payment_file: true,
          vc_bank_id: v.bank,
          net_amount: `${10 + i}`,
          tax_amount: '0',
          amount: `${10 + i}.05`,
          paid: '0',
        };
      }),
    ),
  );
  const created = await s.api('POST', '/bank/payment_files', {
    bank_account_id: s.bankAccountId,
    execution_date: '2024-04-10',
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  t.equal(created.body.count, 1000);
  const { doc } = await download(s, created.body.id);
  const pmtInf = doc.Document.CstmrCdtTrfInitn.PmtInf;
  t.same(pmtInf.map((p: { CdtTrfTxInf: unknown[] }) => p.CdtTrfTxInf.length).sort(), [250, 750]);
  const creditors = new Set(
    pmtInf.flatMap((p: { CdtTrfTxInf: { Cdtr: { Nm: string } }[] }) => p.CdtTrfTxInf.map((x) => x.Cdtr.Nm)),
  );
  t.same(
    [...creditors].sort(),
    ['????', '??? ???????', 'Café Crème Sàrl', 'Dvořák & Šťastný s.r.o.', 'Łódź Logistics Sp. z o.o.'].sort(),
    'Latin names kept, others replaced as SPS requires',
  );
});
