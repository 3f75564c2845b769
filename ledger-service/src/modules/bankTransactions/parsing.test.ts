import t from 'tap';
import { Money } from '@ledger/shared';
import { fixture, validateXsd } from '../../../test/fixtures/bank/support.ts';
import { parseCamt } from './camt.ts';
import { csvRows, detectSeparator, parseCsv } from './csv.ts';
import {
  checkBalances,
  entryKeys,
  matchDocument,
  type MatchCandidates,
  type OpenDocument,
  type StatementEntry,
} from './rules.ts';

/** The entries as plain values, for comparing versions. */
const plain = (entries: StatementEntry[]) => entries.map((e) => ({ ...e, amount: e.amount.toFixed() }));

t.test('the .001.08 fixtures are valid against the ISO 20022 schemas', async (t) => {
  for (const [file, schema] of [
    ['camt.053.001.08.xml', 'camt.053.001.08.xsd'],
    ['camt.054.001.08.xml', 'camt.054.001.08.xsd'],
  ] as const) {
    const result = await validateXsd(fixture(file), schema);
    t.ok(result.valid, `${file}: ${result.errors.join('; ')}`);
  }
  const broken = await validateXsd(
    fixture('camt.053.001.08.xml').replace('<CdtDbtInd>DBIT</CdtDbtInd>', '<CdtDbtInd>DEBIT</CdtDbtInd>'),
    'camt.053.001.08.xsd',
  );
  t.notOk(broken.valid, 'the validator does refuse an invalid file');
});

t.test('camt.053: entries, batch details, references, reversal, foreign currency, balances', async (t) => {
  const [s, ...rest] = parseCamt(fixture('camt.053.001.08.xml'));
  t.equal(rest.length, 0);
  t.match(s, {
    source: 'camt.053',
    version: '08',
    id: 'STMT-2024-03',
    iban: 'CH9300762011623852957',
    currency: 'CHF',
    skipped: 0,
  });
  t.equal(s!.opening!.amount.toFixed(2), '10000.00');
  t.equal(s!.closing!.amount.toFixed(2), '8779.30');
  const e = plain(s!.entries);
  t.equal(e.length, 7, 'five entries, one a batch of three');
  t.same(
    e[0],
    {
      date: '2024-03-05',
      valueDate: '2024-03-05',
      amount: '1234.5',
      currency: 'CHF',
      counterparty: 'Muster AG',
      iban: 'CH5604835012345678009',
      reference: '210000000003139471430009017',
      endToEndId: null,
      text: 'QR-bill payment',
      bankReference: 'CH-20240305-0001',
      reversal: false,
      detail: null,
    },
    'QR-reference credit; NOTPROVIDED is no end-to-end id; the entry text stands in for a missing Ustrd',
  );
  t.same(
    e.slice(1, 4).map((x) => [x.amount, x.counterparty, x.reference, x.endToEndId, x.text, x.detail, x.bankReference]),
    [
      ['100', 'Zürcher Bäckerei GmbH', null, 'E2E-CUST-001', 'Rechnung INV-4711', 1, 'CH-20240311-0002'],
      [
        '150',
        'Globex Corp',
        'RF18539007547034',
        'E2E-CUST-002',
        'Collective credit, 3 transactions',
        2,
        'CH-20240311-0002',
      ],
      ['50', 'Initech SA', null, 'E2E-CUST-003', 'Acompte commande 17', 3, 'CH-20240311-0002'],
    ],
    'a batch entry is one transaction per detail, with its own amount and counterparty',
  );
  t.match(
    e[4],
    {
      amount: '-2000',
      counterparty: 'Papeterie Müller AG',
      iban: 'CH5800791123000889012',
      endToEndId: 'E2E-PF1-0001',
      text: 'AP-000001',
    },
    'debit: the creditor is the counterparty',
  );
  t.match(
    e[5],
    { amount: '200', reversal: true, valueDate: '2024-03-18', text: 'Return of payment: account closed' },
    'reversal',
  );
  t.match(
    e[6],
    { amount: '-955.2', currency: 'CHF', counterparty: 'Fournisseur SARL', iban: 'FR1420041010050500013M02606' },
    'a EUR payment is booked in the account currency',
  );
  t.same(checkBalances(s!), {
    statement: 'STMT-2024-03',
    entries_total: -1220.7,
    opening: 10000,
    closing: 8779.3,
    balanced: true,
    message: null,
  });
});

t.test('.001.04 and .001.08 read the same', async (t) => {
  for (const kind of ['camt.053', 'camt.054']) {
    const [v4] = parseCamt(fixture(`${kind}.001.04.xml`));
    const [v8] = parseCamt(fixture(`${kind}.001.08.xml`));
    t.equal(v4!.version, '04');
    t.same(plain(v4!.entries), plain(v8!.entries), kind);
    t.same(
      { ...v4, entries: [], version: null, opening: null, closing: null },
      { ...v8, entries: [], version: null, opening: null, closing: null },
    );
  }
});

t.test('camt.054: notification for the QR-IBAN, batch of QR payments, no balances', async (t) => {
  const [n] = parseCamt(fixture('camt.054.001.08.xml'));
  t.match(n, { source: 'camt.054', iban: 'CH4431999123000889012', opening: null, closing: null });
  t.same(
    n!.entries.map((e) => [e.amount.toFixed(2), e.reference, e.bankReference, e.counterparty]),
    [
      ['108.10', '000000000000000000000000011', 'QR-20240405-0001', 'Globex Corp'],
      ['200.00', '000000000000000000000000026', 'QR-20240405-0002-1', 'Initech SA'],
      ['50.00', '000000000000000000000000034', 'QR-20240405-0002-2', 'Hübner & Söhne KG'],
    ],
    'details with their own AcctSvcrRef keep it; entities decoded',
  );
  t.equal(checkBalances(n!).balanced, null);
});

t.test('camt: refusals say what is wrong', async (t) => {
  const doc = fixture('camt.053.001.08.xml');
  const refused = (xml: string, message: RegExp, what: string) =>
    t.throws(() => parseCamt(xml), { code: 'invalid_request', message }, what);
  refused(doc.slice(0, doc.length - 40), /malformed XML/, 'truncated');
  refused('not xml at all', /malformed XML|root/, 'not XML');
  refused(
    doc.replaceAll('camt.053.001.08', 'camt.052.001.08'),
    /unknown message type "urn:iso:std:iso:20022:tech:xsd:camt.052.001.08"/,
    'camt.052',
  );
  refused(
    doc.replace(' xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"', ''),
    /unknown message type \(no namespace\)/,
    'no namespace',
  );
  refused(
    doc.replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]>'),
    /DOCTYPE/,
    'DOCTYPE',
  );
  refused(
    doc.replace('<Amt Ccy="CHF">100.00</Amt>', '<Amt Ccy="CHF">101.00</Amt>'),
    /add up to 301, the entry says 300/,
    'batch details not adding up',
  );
  refused(doc.replace('<Amt Ccy="CHF">1234.50</Amt>', '<Amt Ccy="CHF">12,34</Amt>'), /not an amount/, 'amount');
  refused(doc.replace('<Dt>2024-03-05</Dt>', '<Dt>2024-02-30</Dt>'), /not a date|Ntry 1/, 'date');
  refused(
    doc.replace('<CdtDbtInd>DBIT</CdtDbtInd>', '<CdtDbtInd>DEBIT</CdtDbtInd>'),
    /CdtDbtInd must be CRDT or DBIT/,
    'indicator',
  );
  refused(doc.replace('<Stmt>', '<Stmnt>').replace('</Stmt>', '</Stmnt>'), /no statement/, 'no statement');
});

t.test(
  'camt: the streaming parse refuses what is not well-formed, saying where; reads CDATA; ignores other namespaces',
  async (t) => {
    const doc = fixture('camt.053.001.08.xml');
    const refused = (xml: string, message: RegExp, what: string) =>
      t.throws(() => parseCamt(xml), { code: 'invalid_request', message }, what);
    refused(
      doc.replace('</Nm>', '</Name>'),
      /malformed XML at line \d+, column \d+: unexpected close tag/,
      'mismatched end tag',
    );
    refused(
      doc.replace('Muster AG', 'Muster &nbsp; AG'),
      /malformed XML at line \d+, column \d+: undefined entity/,
      'an entity XML does not define',
    );
    refused('', /malformed XML .*root element/, 'empty');
    refused(
      '<?xml version="1.0"?><Stmt xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"/>',
      /the root element is <Stmt>/,
      'another root',
    );
    refused(
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><GrpHdr/></Document>',
      /<Document> has no BkToCstmrStmt/,
      'no message',
    );
    refused(doc.replace('<Ntry>', '<Ntry><Ntry>'), /malformed XML/, 'an entry left open');
    // the first entry's debtor name as CDATA, and a name in another namespace beside it that is not read
    const [s] = parseCamt(
      doc.replace(
        '<Nm>Muster AG</Nm>',
        '<x:Nm xmlns:x="urn:example:other">Not this</x:Nm><Nm><![CDATA[Muster & Co AG]]></Nm>',
      ),
    );
    t.equal(s!.entries[0]!.counterparty, 'Muster & Co AG');
    t.equal(s!.entries.length, 7);
  },
);

t.test('camt: a namespace prefix is read like the default namespace; pending entries are skipped', async (t) => {
  const prefixed = fixture('camt.054.001.08.xml')
    .replace('<Document xmlns="', '<c:Document xmlns:c="')
    .replace(/<(\/?)(?!c:|\?|!)([A-Za-z]+)/g, '<$1c:$2')
    .replace('<c:Sts>\n          <c:Cd>BOOK', '<c:Sts>\n          <c:Cd>PDNG');
  const [n] = parseCamt(prefixed);
  t.equal(n!.skipped, 1);
  t.same(
    n!.entries.map((e) => e.amount.toFixed(2)),
    ['200.00', '50.00'],
  );
  t.throws(
    () => parseCamt(prefixed.replace('xmlns:c=', 'xmlns:d=')),
    /no namespace/,
    'the prefix must be bound to the camt namespace',
  );
});

t.test('CSV: RFC 4180 quoting, references kept compact only when structured', async (t) => {
  t.same(csvRows('a,"b ""q"", c",d\r\n"x\ny",,\n'), [
    ['a', 'b "q", c', 'd'],
    ['x\ny', '', ''],
  ]);
  const s = parseCsv(fixture('transactions.csv'));
  t.same(
    plain(s.entries).map((e) => [e.date, e.amount, e.counterparty, e.iban, e.reference, e.text]),
    [
      ['2024-05-02', '540', 'Globex Corp', 'CH5604835012345678009', 'RF18539007547034', 'Payment'],
      ['2024-05-03', '-89.9', 'Swisscom (Schweiz) AG', 'CH9300762011623852957', null, 'Invoice May, "mobile"'],
      ['2024-05-03', '-89.9', 'Swisscom (Schweiz) AG', 'CH9300762011623852957', null, 'Invoice May, "mobile"'],
      ['2024-05-06', '1200', 'Zürcher Bäckerei GmbH', null, null, 'INV-4711 Rechnung\nzweite Zeile'],
    ],
  );
  const keys = entryKeys(s.entries);
  t.equal(new Set(keys).size, 4, 'two identical rows get different keys');
  t.same(entryKeys(parseCsv(fixture('transactions.csv')).entries), keys, 'and the same keys on every import');
  t.match(keys[1], /^hash:[0-9a-f]{64}:1$/);
  t.match(keys[2], /^hash:[0-9a-f]{64}:2$/);
  const header = 'date,amount,currency,counterparty,iban,reference,description\n';
  const refused = (csv: string, message: RegExp) => t.throws(() => parseCsv(csv), { code: 'invalid_request', message });
  refused('date,amount,currency\n', /no column "counterparty"/);
  refused(`${header.trim()},extra\n`, /unknown column "extra"/);
  refused(`${header}2024-05-02,1'000.00,CHF,,,,\n`, /row 2: amount "1'000.00"/);
  refused(`${header}02.05.2024,10,CHF,,,,\n`, /row 2: date "02.05.2024"/);
  refused(`${header}2024-05-02,10,XYZ,,,,\n`, /row 2: "XYZ" is not an ISO 4217 currency/);
  refused(`${header}2024-05-02,10,CHF,,,\n`, /row 2 has 6 fields/);
  refused(`${header}2024-05-02,10,CHF,"open,,,\n`, /not closed/);
  refused('', /empty/);
});

t.test('CSV separated by semicolons: the header row decides; there a decimal comma is read too', async (t) => {
  t.equal(detectSeparator('date;amount;currency;counterparty;iban;reference;description\n1;2,5\n'), ';');
  t.equal(detectSeparator('"date";"amount","x"\n'), ';', 'quoted names do not count, the separators between them do');
  t.equal(detectSeparator('date,amount;currency,counterparty\n'), ',', 'the one the header is split by most');
  t.same(csvRows('a;"b; ""q"", c";d\n', ';'), [['a', 'b; "q", c', 'd']]);
  const semicolons = parseCsv(fixture('transactions-semicolon.csv'));
  const commas = parseCsv(fixture('transactions.csv'));
  t.same(
    plain(semicolons.entries),
    plain(commas.entries),
    'the same transactions as the comma file, decimal comma or point',
  );
  t.same(entryKeys(semicolons.entries), entryKeys(commas.entries), 'so importing both finds duplicates');

  const header = 'date;amount;currency;counterparty;iban;reference;description\n';
  const refused = (csv: string, message: RegExp) => t.throws(() => parseCsv(csv), { code: 'invalid_request', message });
  refused(
    `${header}2024-05-02;1'000.50;CHF;;;;\n`,
    /row 2: amount "1'000\.50" is not a number like -1234\.50 or -1234,50 \(no thousands separators\)/,
  );
  refused(`${header}2024-05-02;1.000,50;CHF;;;;\n`, /row 2: amount "1\.000,50"/);
  refused(`${header}2024-05-02;0,001;CHF;;;;\n`, /row 2: amount 0,001 has more decimals than CHF has \(2\)/);
  refused(
    'date,amount,currency,counterparty,iban,reference,description\n2024-05-02,"10,50",CHF,,,,\n',
    /row 2: amount "10,50" is not a number like -1234\.50 \(/,
  );
  refused(
    header.replaceAll(';', '\t'),
    /the header row is separated by tabs; separate the columns with commas or semicolons/,
  );
  refused(header.replaceAll(';', '|'), /the header row is separated by vertical bars/);
});

t.test('entry keys: the bank reference, per detail of a batch', async (t) => {
  const [s] = parseCamt(fixture('camt.053.001.08.xml'));
  t.same(entryKeys(s!.entries), [
    'ref:CH-20240305-0001',
    'ref:CH-20240311-0002#1',
    'ref:CH-20240311-0002#2',
    'ref:CH-20240311-0002#3',
    'ref:CH-20240315-0003',
    'ref:CH-20240320-0004',
    'ref:CH-20240328-0005',
  ]);
});

t.test('balances that do not add up are reported', async (t) => {
  const [s] = parseCamt(
    fixture('camt.053.001.08.xml').replace('<Amt Ccy="CHF">8779.30</Amt>', '<Amt Ccy="CHF">8779.35</Amt>'),
  );
  const check = checkBalances(s!);
  t.equal(check.balanced, false);
  t.match(
    check.message,
    /10000\.00 CHF plus the entries -1220\.70 CHF is 8779\.30 CHF, but the closing balance is 8779\.35 CHF/,
  );
});

t.test(
  'matching: reference or invoice number with the open amount; end-to-end id of a payment-file payment',
  async (t) => {
    const doc = (id: number, invNumber: string, open: string, over: Partial<OpenDocument> = {}): OpenDocument => ({
      id,
      vc: 'customer',
      invNumber,
      qrReference: null,
      currency: 'CHF',
      open: new Money(open),
      ...over,
    });
    const a = doc(1, 'AR-000001', '1234.5', { qrReference: '210000000003139471430009017' });
    const b = doc(2, 'INV-4711', '100');
    const c = doc(3, 'INV-4712', '100');
    const bill = { ...doc(4, 'AP-000001', '2000', { vc: 'vendor' }), fileAmount: new Money('2000') };
    const candidates: MatchCandidates = {
      byReference: new Map([[a.qrReference!, a]]),
      byNumber: new Map([
        [a.invNumber, a],
        [b.invNumber, b],
        [c.invNumber, c],
      ]),
      byEndToEnd: new Map([['E2E-1', bill]]),
    };
    const m = (amount: string, over: Partial<Parameters<typeof matchDocument>[0]> = {}) =>
      matchDocument(
        {
          amount: new Money(amount),
          currency: 'CHF',
          reference: null,
          endToEndId: null,
          text: null,
          reversal: false,
          ...over,
        },
        candidates,
      )?.id ?? null;
    t.equal(m('1234.50', { reference: a.qrReference }), 1, 'QR reference and open amount');
    t.equal(m('1234.00', { reference: a.qrReference }), null, 'not the open amount');
    t.equal(m('1234.50', { reference: a.qrReference, currency: 'EUR' }), null, 'other currency');
    t.equal(m('1234.50', { reference: a.qrReference, text: 'INV-4711' }), 1, 'the reference goes before the text');
    t.equal(
      m('100', { reference: a.qrReference, text: 'INV-4711' }),
      null,
      'a reference that names a document decides alone',
    );
    t.equal(m('100', { text: 'Rechnung INV-4711, danke' }), 2, 'invoice number in the text');
    t.equal(m('100', { text: 'inv-4711' }), null, 'numbers compare as written');
    t.equal(m('100', { text: 'INV-4711 und INV-4712' }), null, 'two documents named: ambiguous');
    t.equal(m('100', { text: 'INV-47111' }), null, 'a longer number is another number');
    t.equal(m('100', { text: 'INV-4711', reversal: true }), null, 'reversals are never matched');
    t.equal(m('-2000', { endToEndId: 'E2E-1' }), 4, 'debit with the end-to-end id of a payment-file payment');
    t.equal(m('-1999', { endToEndId: 'E2E-1' }), null, 'not the amount of the file');
    t.equal(m('2000', { endToEndId: 'E2E-1' }), null, 'a credit does not pay a bill');
    t.equal(m('-100', { text: 'INV-4711' }), null, 'a debit does not pay an invoice');
  },
);

t.test('camt: deeper than 64 elements or more than a million elements is refused at once', async (t) => {
  const doc = fixture('camt.053.001.08.xml');
  const deep = (n: number) => doc.replace('<Ntry>', `<Ntry>${'<X>'.repeat(n)}${'</X>'.repeat(n)}`);
  t.throws(() => parseCamt(deep(100)), { code: 'invalid_request', message: /nested more than 64 deep \(line \d+\)/ });
  // 50 levels inside an entry stay within the limit
  t.equal(parseCamt(deep(50))[0]!.entries.length, 7);
  const started = performance.now();
  t.throws(() => parseCamt(deep(30_000)), { message: /nested more than 64 deep/ });
  t.comment(`30,000 nested elements refused in ${(performance.now() - started).toFixed(0)} ms`);
  const wide = doc.replace('<Ntry>', `<Ntry>${'<X/>'.repeat(1_000_001)}`);
  t.throws(() => parseCamt(wide), { code: 'invalid_request', message: /more than 1,000,000 elements/ });
});

t.test("amounts finer than the currency's minor unit are refused, naming the entry", async (t) => {
  const doc = fixture('camt.053.001.08.xml');
  t.throws(() => parseCamt(doc.replace('<Amt Ccy="CHF">1234.50</Amt>', '<Amt Ccy="CHF">10.00001</Amt>')), {
    code: 'invalid_request',
    message: /Stmt 1, Ntry \d+: the amount 10\.00001 CHF has more decimals than CHF has \(2\)/,
  });
  // trailing zeros are no finer: 1234.50000 is 1234.50
  t.doesNotThrow(() => parseCamt(doc.replace('<Amt Ccy="CHF">1234.50</Amt>', '<Amt Ccy="CHF">1234.50000</Amt>')));
  const csv =
    'date,amount,currency,counterparty,iban,reference,description\n2024-03-01,10.00,CHF,A,,,x\n' +
    '2024-03-02,0.001,CHF,B,,,y\n';
  t.throws(() => parseCsv(csv), {
    code: 'invalid_request',
    message: /row 3: amount 0\.001 has more decimals than CHF has \(2\)/,
  });
  t.equal(
    parseCsv(csv.replace('0.001,CHF', '12,JPY').replace('10.00,CHF', '10,JPY')).entries.length,
    2,
    'JPY has no minor unit: whole amounts are fine',
  );
  t.throws(() => parseCsv(csv.replace('0.001,CHF', '12.5,JPY')), {
    message: /row 3: amount 12\.5 has more decimals than JPY has \(0\)/,
  });
});
