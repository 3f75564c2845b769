import t from 'tap';
import { XMLParser } from 'fast-xml-parser';
import { Money } from '@ledger/shared';
import { validateXsd } from '../../../test/fixtures/bank/support.ts';
import { buildPain001, spsId, spsText, type Payment, type PaymentFileInput } from './pain001.ts';

const base: PaymentFileInput = {
  messageId: 'PF-1',
  createdAt: new Date('2024-04-08T09:30:00.123Z'),
  executionDate: '2024-04-10',
  debtorName: 'Demo AG',
  debtorIban: 'CH9300762011623852957',
  debtorBic: null,
  payments: [],
};
const payment = (over: Partial<Payment> = {}): Payment => ({
  endToEndId: 'PF-1-1',
  amount: new Money('100.50'),
  currency: 'CHF',
  creditorName: 'Papeterie Müller AG',
  creditorIban: 'CH5800791123000889012',
  creditorBic: null,
  reference: null,
  text: 'AP-000001',
  ...over,
});

t.test('SPS text: Latin kept, other scripts replaced, control characters spaces, cut to length', async (t) => {
  t.equal(
    spsText('Zürcher Bäckerei & Söhne <GmbH>', 70),
    'Zürcher Bäckerei & Söhne <GmbH>',
    "escaping is the builder's job",
  );
  t.equal(spsText('Łódź Škoda Őrség € Ștefan', 70), 'Łódź Škoda Őrség € Ștefan', 'Latin Extended-A and the SPS extras');
  t.equal(spsText('Nguyễn Văn', 70), 'Nguyen Văn', 'a letter with a mark SPS lacks keeps its base letter');
  t.equal(spsText('ООО Ромашка', 70), '??? ???????');
  t.equal(spsText('a\tb\nc', 70), 'a b c');
  t.equal(spsText('x'.repeat(80), 70).length, 70);
  t.equal(spsText('  ', 70), '?', 'never empty');
  t.equal(spsId('PF_1/ä'), 'PF-1/-');
});

t.test('pain.001: one PmtInf per currency, structured references, valid against the SPS schema', async (t) => {
  const xml = buildPain001({
    ...base,
    debtorName: 'Demo & Co <AG>',
    payments: [
      payment(),
      payment({
        endToEndId: 'PF-1-2',
        reference: '210000000003139471430009017',
        creditorIban: 'CH4431999123000889012',
        amount: new Money('1949.75'),
      }),
      payment({
        endToEndId: 'PF-1-3',
        currency: 'EUR',
        reference: 'RF18539007547034',
        creditorIban: 'DE89370400440532013000',
        creditorBic: 'COBADEFFXXX',
        creditorName: 'Bäckerei Köln GmbH',
        amount: new Money(1000),
      }),
      payment({ endToEndId: 'PF-1-4', creditorName: 'ООО Ромашка 東京 😀', amount: new Money('0.05') }),
    ],
  });
  const result = await validateXsd(xml, 'pain.001.001.09.ch.03.xsd');
  t.ok(result.valid, result.errors.join('\n'));
  t.match(xml, /<Nm>Demo &amp; Co &lt;AG&gt;<\/Nm>/, 'escaped by the builder');
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    isArray: (n) => ['PmtInf', 'CdtTrfTxInf'].includes(n),
  }).parse(xml);
  const init = doc.Document.CstmrCdtTrfInitn;
  t.equal(doc.Document['@xmlns'], 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
  t.match(init.GrpHdr, { MsgId: 'PF-1', CreDtTm: '2024-04-08T09:30:00Z', NbOfTxs: 4, CtrlSum: 3050.3 });
  t.same(
    init.PmtInf.map((p: { PmtInfId: string; NbOfTxs: number; CtrlSum: number; CdtTrfTxInf: unknown[] }) => [
      p.PmtInfId,
      p.NbOfTxs,
      p.CtrlSum,
      p.CdtTrfTxInf.length,
    ]),
    [
      ['PF-1-1', 3, 2050.3, 3],
      ['PF-1-2', 1, 1000, 1],
    ],
    'grouped by currency',
  );
  t.same(
    init.PmtInf[0].DbtrAgt,
    { FinInstnId: { ClrSysMmbId: { ClrSysId: { Cd: 'CHBCC' }, MmbId: '00762' } } },
    'no BIC: the Swiss institution id',
  );
  const [chf1, chf2, chf4] = init.PmtInf[0].CdtTrfTxInf;
  t.same(chf1.RmtInf, { Ustrd: 'AP-000001' }, 'without a reference: the document number as text');
  t.same(chf1.Amt.InstdAmt, { '#text': '100.50', '@Ccy': 'CHF' }, 'amounts to the minor unit');
  t.same(chf2.RmtInf.Strd.CdtrRefInf, { Tp: { CdOrPrtry: { Prtry: 'QRR' } }, Ref: '210000000003139471430009017' });
  t.equal(chf4.Cdtr.Nm, '??? ??????? ?? ?');
  const eur = init.PmtInf[1].CdtTrfTxInf[0];
  t.same(eur.RmtInf.Strd.CdtrRefInf, { Tp: { CdOrPrtry: { Cd: 'SCOR' } }, Ref: 'RF18539007547034' });
  t.same(eur.CdtrAgt, { FinInstnId: { BICFI: 'COBADEFFXXX' } });
  t.equal(init.PmtInf[1].ReqdExctnDt.Dt, '2024-04-10');
  t.throws(() => buildPain001(base), /at least one payment/);
});

t.test('pain.001 with 1,000 payments is valid', async (t) => {
  const payments = Array.from({ length: 1000 }, (_, i) =>
    payment({
      endToEndId: `PF-7-${i + 1}`,
      amount: new Money(i + 1).dividedBy(100).plus(10),
      currency: i % 10 === 0 ? 'EUR' : 'CHF',
      creditorName: `Lieferant Nr. ${i} – Müller & Söhne`,
      text: `AP-${String(i).padStart(6, '0')}`,
    }),
  );
  const xml = buildPain001({ ...base, messageId: 'PF-7', payments });
  const result = await validateXsd(xml, 'pain.001.001.09.ch.03.xsd');
  t.ok(result.valid, result.errors.slice(0, 5).join('\n'));
  t.equal(xml.match(/<CdtTrfTxInf>/g)?.length, 1000);
});
