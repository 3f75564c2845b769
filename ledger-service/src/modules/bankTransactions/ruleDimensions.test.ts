/**
 * Dimensions on bank rules (docs/bank.md "Bank rules", docs/year-end.md): a book action may name dimensions; the
 * booked line (the account side, never the bank's) carries them, whether the rule books a journal entry or a party's
 * document; an unknown dimension or value is refused with the field and nothing is stored.
 */
import t from 'tap';
import { bankSetup, COMPANY_IBAN } from '../../../test/fixtures/bank/setup.ts';

function camt053(entries: { ref: string; date: string; amount: string; name: string; text: string }[]): string {
  const ntry = (e: (typeof entries)[number]) => `
      <Ntry>
        <Amt Ccy="CHF">${e.amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${e.date}</Dt></BookgDt><ValDt><Dt>${e.date}</Dt></ValDt><AcctSvcrRef>${e.ref}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>AUTT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <RltdPties><Cdtr><Pty><Nm>${e.name}</Nm></Pty></Cdtr></RltdPties>
          <RmtInf><Ustrd>${e.text}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>DIM-1</MsgId><CreDtTm>2024-03-31T20:00:00+01:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>DIM-1</Id>
      <Acct><Id><IBAN>${COMPANY_IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>
      ${entries.map(ntry).join('')}
    </Stmt>
  </BkToCstmrStmt>
</Document>`;
}

t.test('a bank rule books its line with the dimensions of its action', async (t) => {
  const s = await bankSetup(t);
  const dim = await s.api('POST', '/system/dimensions', {
    code: 'cc',
    name: 'Cost centre',
    values: [
      { code: 'admin', name: 'Administration' },
      { code: 'sales', name: 'Sales' },
    ],
  });
  t.equal(dim.status, 201, JSON.stringify(dim.body));
  const vendor = (await s.api('POST', '/arap/vendor', { name: 'Swisscom (Schweiz) AG' })).body;

  for (const [dimensions, field] of [
    [{ project: 'P-1' }, '/action/dimensions/project'],
    [{ cc: 'marketing' }, '/action/dimensions/cc'],
  ] as const) {
    const bad = await s.api('POST', '/bank/rules', {
      name: 'Bad',
      conditions: { counterparty: 'x' },
      action: { kind: 'book', account: '6500', dimensions },
    });
    t.equal(bad.status, 400, JSON.stringify(bad.body));
    t.equal(bad.body.error.field, field);
  }
  t.same((await s.api('GET', '/bank/rules')).body, [], 'nothing stored');

  const office = await s.api('POST', '/bank/rules', {
    name: 'Office supplies',
    auto: true,
    conditions: { direction: 'out', counterparty: 'papeterie' },
    action: { kind: 'book', account: '6500', dimensions: { cc: 'admin' } },
  });
  t.equal(office.status, 201, JSON.stringify(office.body));
  t.same((await s.api('GET', `/bank/rules/${office.body.id}`)).body.action, {
    kind: 'book',
    account: '6500',
    dimensions: { cc: 'admin' },
  });
  const phone = await s.api('POST', '/bank/rules', {
    name: 'Swisscom',
    auto: true,
    conditions: { direction: 'out', counterparty: 'swisscom' },
    action: { kind: 'book', account: '6510', party_id: vendor.id, dimensions: { cc: 'sales' } },
  });
  t.equal(phone.status, 201, JSON.stringify(phone.body));

  const imported = await s.send(
    camt053([
      { ref: 'P-1', date: '2024-02-10', amount: '80.00', name: 'Papeterie Zumstein', text: 'Papier' },
      { ref: 'S-1', date: '2024-02-29', amount: '108.10', name: 'Swisscom (Schweiz) AG', text: 'Mobile' },
    ]),
  );
  t.equal(imported.status, 200, JSON.stringify(imported.body));
  t.match(imported.body, { imported: 2, matched: 2 });

  const report = await s.api('GET', '/reports/income_statement?from=2024-01-01&to=2024-12-31&dimension=cc');
  t.equal(report.status, 200, JSON.stringify(report.body));
  const columns = (accno: string) =>
    Object.fromEntries(
      report.body.expenses.accounts
        .find((a: { accno: string }) => a.accno === accno)
        .columns.map((c: { value: string | null; amount: number }) => [c.value ?? 'unassigned', c.amount]),
    );
  t.same(columns('6500'), { admin: 80, sales: 0, unassigned: 0 }, 'the journal entry of the rule: cost centre admin');
  t.same(columns('6510'), { admin: 0, sales: 108.1, unassigned: 0 }, "the party's document: cost centre sales");

  const bank = (await s.api('GET', '/reports/trial_balance?from=2024-01-01&to=2024-12-31&dimension=cc')).body;
  const bankRow = bank.accounts.find((a: { accno: string }) => a.accno === '1020');
  t.same(
    bankRow.columns.map((c: { value: string | null; closing: number }) => [c.value, c.closing]),
    [
      ['admin', 0],
      ['sales', 0],
      [null, -188.1],
    ],
    'the bank side is unassigned',
  );
});
