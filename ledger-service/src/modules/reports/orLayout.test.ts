import t from 'tap';
import { LANGUAGES } from '@ledger/shared';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { pdfText } from '../../../test/support/pdf.ts';

/**
 * The Swiss SME chart's names in four languages (`?language=`) and the layout of the Code of Obligations
 * (`?layout=or`, Art. 959a/959b), docs/year-end.md.
 */

const IS_ORDER = [
  'net_revenue',
  'inventory_change',
  'material',
  'personnel',
  'other_operating',
  'depreciation',
  'financial',
  'non_operating',
  'extraordinary',
  'direct_taxes',
  'net_income',
];
const ASSET_ITEMS = [
  'cash',
  'trade_receivables',
  'other_receivables',
  'inventories',
  'prepaid',
  'financial_assets',
  'participations',
  'tangible',
  'intangible',
  'unpaid_capital',
];
const RIGHT_ITEMS = [
  'trade_payables',
  'short_term_interest_bearing',
  'other_short_term',
  'accrued',
  'long_term_interest_bearing',
  'other_long_term',
  'provisions',
  'capital',
  'capital_reserve',
  'profit_reserve',
  'voluntary_reserves',
  'own_shares',
  'retained',
  'annual_result',
];

type Item = { key: string; number: string; label: string; amount: number; accounts: { accno: string }[] };
type Side = { total: number; groups: { key: string; total: number; items: Item[] }[] };

async function setup(t: { teardown(fn: () => unknown): void }) {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  for (const [date, debit, credit, amount] of [
    ['2025-01-05', '1020', '2800', 20000],
    ['2025-02-01', '1020', '3400', 5000],
    ['2025-02-10', '1140', '3000', 800],
    ['2025-03-01', '6000', '1020', 1200],
    ['2025-03-15', '4000', '2100', 1000],
    ['2025-06-30', '6800', '1509', 300],
    ['2025-06-30', '6900', '1020', 50],
    ['2025-07-01', '8900', '1020', 100],
  ] as const) {
    const r = await api('POST', '/gl/transactions', {
      transdate: date,
      pending: '0',
      lines: [
        { account: debit, debit: amount },
        { account: credit, credit: amount },
      ],
    });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  }
  return { ledger, co, api };
}

t.test('the income statement of Art. 959b CO: every item in order, in all four languages', async (t) => {
  const { api } = await setup(t);
  const labels = new Set<string>();
  for (const language of LANGUAGES) {
    const r = await api(
      'GET',
      `/reports/income_statement?from=2025-01-01&to=2025-12-31&layout=or&language=${language}`,
    );
    t.equal(r.status, 200, JSON.stringify(r.body));
    const items: Item[] = r.body.or.items;
    t.same(
      items.map((i) => i.key),
      IS_ORDER,
      `${language}: the items of Art. 959b in order`,
    );
    t.same(
      items.map((i) => i.number),
      ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'],
    );
    const amount = Object.fromEntries(items.map((i) => [i.key, i.amount]));
    t.match(amount, {
      net_revenue: 5800,
      inventory_change: 0,
      material: -1000,
      personnel: 0,
      other_operating: -1200,
      depreciation: -300,
      financial: -50,
      direct_taxes: -100,
      net_income: 3150,
    });
    t.equal(amount.net_income, r.body.net_income, 'item 11 is the net income');
    labels.add(items[0]!.label);
    t.equal(r.body.or.language, language);
  }
  t.equal(labels.size, 4, 'four languages, four labels');
  const de = (await api('GET', '/reports/income_statement?from=2025-01-01&to=2025-12-31&layout=or&language=de')).body;
  t.equal(de.or.items[0].label, 'Nettoerlöse aus Lieferungen und Leistungen');
  t.match(de.income.accounts, [
    { accno: '3000', description: 'Produktionserlöse' },
    { accno: '3400', description: 'Dienstleistungserlöse' },
  ]);
  const it = (await api('GET', '/reports/income_statement?from=2025-01-01&to=2025-12-31&layout=or&language=it')).body;
  t.equal(it.or.items[10].label, "Utile o perdita d'esercizio");
  const plain = (await api('GET', '/reports/income_statement?from=2025-01-01&to=2025-12-31')).body;
  t.notOk('or' in plain, 'without layout=or no layout');
  t.equal(plain.income.accounts[1].description, 'Revenue from services', "the chart's own names without language");
});

t.test('the balance sheet of Art. 959a CO: both sides in order, equal totals, in all four languages', async (t) => {
  const { api } = await setup(t);
  for (const language of LANGUAGES) {
    const r = await api('GET', `/reports/balance_sheet?date=2025-12-31&layout=or&language=${language}`);
    t.equal(r.status, 200, JSON.stringify(r.body));
    const assets: Side = r.body.or.assets;
    const right: Side = r.body.or.liabilities_and_equity;
    t.same(
      assets.groups.map((g) => g.key),
      ['current_assets', 'fixed_assets'],
    );
    t.same(
      right.groups.map((g) => g.key),
      ['short_term_liabilities', 'long_term_liabilities', 'equity'],
    );
    t.same(
      assets.groups.flatMap((g) => g.items.map((i) => i.key)),
      ASSET_ITEMS,
      `${language}: the assets of Art. 959a in order`,
    );
    t.same(
      right.groups.flatMap((g) => g.items.map((i) => i.key)),
      RIGHT_ITEMS,
      `${language}: liabilities and equity in order`,
    );
    const amount = Object.fromEntries(
      [...assets.groups, ...right.groups].flatMap((g) => g.items.map((i) => [i.key, i.amount])),
    );
    t.match(amount, {
      cash: 23650,
      trade_receivables: 0,
      other_receivables: 800,
      tangible: -300,
      short_term_interest_bearing: 1000,
      capital: 20000,
      annual_result: 3150,
    });
    t.equal(assets.total, 24150);
    t.equal(right.total, 24150, 'the two sides are equal');
    t.equal(assets.total, r.body.total_assets);
  }
  const fr = (await api('GET', '/reports/balance_sheet?date=2025-12-31&layout=or&language=fr')).body.or;
  t.equal(fr.assets.groups[0].items[1].label, 'Créances résultant de la vente de biens et de prestations de services');
  t.equal(fr.liabilities_and_equity.label, 'Passifs');

  const csv = await api('GET', '/reports/balance_sheet?date=2025-12-31&layout=or&language=de', undefined, {
    Accept: 'text/csv',
  });
  t.equal(csv.status, 200);
  t.match(csv.body, /Flüssige Mittel und kurzfristig gehaltene Aktiven mit Börsenkurs,23650\.00/);
  t.match(csv.body, /Bankguthaben,23650\.00/);
  const csvIs = await api(
    'GET',
    '/reports/income_statement?from=2025-01-01&to=2025-12-31&layout=or&language=en',
    undefined,
    {
      Accept: 'text/csv',
    },
  );
  t.match(csvIs.body, /11,Profit or loss for the year,3150\.00/);
});

t.test('?language= names the accounts; a renamed account keeps its own name; bad values are 400', async (t) => {
  const { ledger, co, api } = await setup(t);
  const tb = (await api('GET', '/reports/trial_balance?from=2025-01-01&to=2025-12-31&language=fr')).body;
  const name = (accno: string) => tb.accounts.find((a: { accno: string }) => a.accno === accno)?.description;
  t.equal(name('1020'), 'Avoirs bancaires');
  t.equal(name('6800'), 'Amortissements et corrections de valeur sur les immobilisations');
  const renamed = await api('POST', '/system/chart/accounts/1020', { description: 'UBS account' });
  t.equal(renamed.status, 200, JSON.stringify(renamed.body));
  const again = (await api('GET', '/reports/trial_balance?from=2025-01-01&to=2025-12-31&language=it')).body;
  t.equal(again.accounts.find((a: { accno: string }) => a.accno === '1020').description, 'UBS account');
  t.equal(
    again.accounts.find((a: { accno: string }) => a.accno === '2800').description,
    'Capitale azionario, sociale o di fondazione',
  );
  t.equal((await api('GET', '/reports/trial_balance?language=rm')).status, 400);
  t.equal((await api('GET', '/reports/balance_sheet?layout=gaap')).status, 400);
  const pdf = await fetch(
    `${ledger.url}/client/${co.dataset}/reports/income_statement?from=2025-01-01&to=2025-12-31&layout=or&language=de`,
    {
      headers: { 'X-API-Key': co.apiKey, Accept: 'application/pdf' },
    },
  );
  t.equal(pdf.status, 200);
  t.match(await pdfText(Buffer.from(await pdf.arrayBuffer())), /Materialaufwand/);
});
