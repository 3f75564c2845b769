import { minorUnits, Money } from '@ledger/shared';
import type { ResponseOf, contracts } from '@ledger/shared';

/**
 * Each report as one table (title, facts, columns, rows), what the CSV and PDF answers are
 * made from (render.ts), so both show exactly the figures of the JSON answer. Amounts are
 * written with the currency's decimals and a point, no thousands separator; signs as in JSON.
 */
export interface ReportTable {
  title: string;
  /** `Period: 2025-01-01 – 2025-03-31`, `Currency: CHF` */
  facts: string[];
  fileName: string;
  columns: { title: string; numeric: boolean; width: number }[];
  /** `total` rows are printed bold in the PDF */
  rows: { cells: string[]; total?: boolean }[];
}

export type TrialBalance = ResponseOf<typeof contracts.trialBalance>;
export type IncomeStatement = ResponseOf<typeof contracts.incomeStatement>;
export type BalanceSheet = ResponseOf<typeof contracts.balanceSheet>;
export type VatReport = ResponseOf<typeof contracts.vatReport>;

const amount = (v: number, currency: string) => new Money(v).toFixed(minorUnits(currency));

export function trialBalanceTable(r: TrialBalance): ReportTable {
  const a = (v: number) => amount(v, r.currency);
  return {
    title: 'Trial balance',
    facts: [`Period: ${r.from} – ${r.to}`, `Currency: ${r.currency}`, 'Signs: debit positive, credit negative'],
    fileName: `trial_balance_${r.from}_${r.to}`,
    columns: [
      { title: 'Account', numeric: false, width: 50 },
      { title: 'Description', numeric: false, width: 150 },
      { title: 'Category', numeric: false, width: 40 },
      { title: 'Opening', numeric: true, width: 68 },
      { title: 'Debit', numeric: true, width: 68 },
      { title: 'Credit', numeric: true, width: 68 },
      { title: 'Closing', numeric: true, width: 68 },
    ],
    rows: [
      ...r.accounts.map((x) => ({
        cells: [x.accno, x.description, x.category, a(x.opening), a(x.debit), a(x.credit), a(x.closing)],
      })),
      {
        cells: ['', 'Total', '', a(r.totals.opening), a(r.totals.debit), a(r.totals.credit), a(r.totals.closing)],
        total: true,
      },
    ],
  };
}

const sectionColumns = [
  { title: 'Section', numeric: false, width: 80 },
  { title: 'Account', numeric: false, width: 60 },
  { title: 'Description', numeric: false, width: 280 },
  { title: 'Amount', numeric: true, width: 90 },
];

type Section = { accounts: readonly { accno: string; description: string; amount: number }[]; total: number };

function sectionRows(name: string, label: string, s: Section, currency: string): ReportTable['rows'] {
  return [
    ...s.accounts.map((x) => ({ cells: [name, x.accno, x.description, amount(x.amount, currency)] })),
    { cells: [name, '', `Total ${label}`, amount(s.total, currency)], total: true },
  ];
}

type OrItem = {
  number: string;
  label: string;
  amount: number;
  accounts: readonly { accno: string; description: string; amount: number }[];
};

/** The rows of the law's items (layout=or): each item, its accounts under it. */
function orRows(section: string, items: readonly OrItem[], currency: string): ReportTable['rows'] {
  return items.flatMap((i) => [
    { cells: [section, i.number, i.label, amount(i.amount, currency)], total: true },
    ...i.accounts.map((x) => ({ cells: [section, x.accno, x.description, amount(x.amount, currency)] })),
  ]);
}

const orColumns = [
  { title: 'Section', numeric: false, width: 80 },
  { title: 'Item / account', numeric: false, width: 60 },
  { title: 'Description', numeric: false, width: 280 },
  { title: 'Amount', numeric: true, width: 90 },
];

export function incomeStatementTable(r: IncomeStatement): ReportTable {
  if (r.or) {
    return {
      title: 'Income statement (Art. 959b CO)',
      facts: [`Period: ${r.from} – ${r.to}`, `Currency: ${r.currency}`, 'Signs: revenue positive, expenses negative'],
      fileName: `income_statement_or_${r.from}_${r.to}`,
      columns: orColumns,
      rows: orRows('result', r.or.items, r.currency),
    };
  }
  return {
    title: 'Income statement',
    facts: [
      `Period: ${r.from} – ${r.to}`,
      `Currency: ${r.currency}`,
      'Signs: debit positive, credit negative; net income: a profit is positive',
    ],
    fileName: `income_statement_${r.from}_${r.to}`,
    columns: sectionColumns,
    rows: [
      ...sectionRows('income', 'income', r.income, r.currency),
      ...sectionRows('expenses', 'expenses', r.expenses, r.currency),
      { cells: ['result', '', 'Net income', amount(r.net_income, r.currency)], total: true },
    ],
  };
}

export function balanceSheetTable(r: BalanceSheet): ReportTable {
  const a = (v: number) => amount(v, r.currency);
  if (r.or) {
    const side = (s: NonNullable<BalanceSheet['or']>['assets']) =>
      s.groups.flatMap((g) => [
        ...orRows(s.label, g.items, r.currency),
        { cells: [s.label, g.number, g.label, a(g.total)], total: true },
      ]);
    return {
      title: 'Balance sheet (Art. 959a CO)',
      facts: [`Date: ${r.date}`, `Currency: ${r.currency}`, 'Signs: both sides positive'],
      fileName: `balance_sheet_or_${r.date}`,
      columns: orColumns,
      rows: [
        ...side(r.or.assets),
        { cells: [r.or.assets.label, '', r.or.assets.label, a(r.or.assets.total)], total: true },
        ...side(r.or.liabilities_and_equity),
        {
          cells: [
            r.or.liabilities_and_equity.label,
            '',
            r.or.liabilities_and_equity.label,
            a(r.or.liabilities_and_equity.total),
          ],
          total: true,
        },
      ],
    };
  }
  return {
    title: 'Balance sheet',
    facts: [`Date: ${r.date}`, `Currency: ${r.currency}`, 'Signs: debit positive, credit negative'],
    fileName: `balance_sheet_${r.date}`,
    columns: sectionColumns,
    rows: [
      ...sectionRows('assets', 'assets', r.assets, r.currency),
      ...sectionRows('liabilities', 'liabilities', r.liabilities, r.currency),
      ...r.equity.accounts.map((x) => ({ cells: ['equity', x.accno, x.description, a(x.amount)] })),
      {
        cells: [
          'equity',
          '',
          `Result of the current year (since ${r.fiscal_year_start})`,
          a(r.equity.current_year_result),
        ],
      },
      { cells: ['equity', '', 'Results of earlier years not yet closed', a(r.equity.earlier_years_result)] },
      { cells: ['equity', '', 'Total equity', a(r.equity.total)], total: true },
      { cells: ['total', '', 'Total assets', a(r.total_assets)], total: true },
      { cells: ['total', '', 'Total liabilities and equity', a(r.total_liabilities_and_equity)], total: true },
    ],
  };
}

const SWISS_LABELS: Record<string, string> = {
  '200': 'Total agreed consideration',
  '289': 'Deductions (sales without tax code)',
  '299': 'Taxable turnover',
  '302': 'Standard rate 8.1 %',
  '312': 'Reduced rate 2.6 %',
  '342': 'Accommodation rate 3.8 %',
  '382': 'Other rates',
  '399': 'Total tax',
  '400': 'Input tax on material and services',
  '405': 'Input tax on investments and other operating costs',
  '479': 'Total input tax',
  '500': 'Amount payable',
  '510': 'Credit in favour of the taxable person',
};

export function vatReportTable(r: VatReport): ReportTable {
  const a = (v: number) => amount(v, r.currency);
  const rows: ReportTable['rows'] = r.codes.map((x) => ({
    cells: [
      x.side,
      x.code ?? '',
      (
        `${x.description ?? ''} (account ${x.account}` +
        `${x.rate === null ? '' : `, ${new Money(x.rate).times(100).toString()} %`})`
      ).trim(),
      a(x.base),
      a(x.tax),
    ],
  }));
  rows.push({ cells: ['output', '', 'Total output tax', a(r.output.base), a(r.output.tax)], total: true });
  rows.push({ cells: ['input', '', 'Total input tax', a(r.input.base), a(r.input.tax)], total: true });
  rows.push({ cells: ['due', '', 'Net amount due (output - input)', '', a(r.net_due)], total: true });
  for (const m of r.other_movements)
    rows.push({
      cells: ['other', m.account, `${m.description} (journal entries, not in the amount due)`, '', a(m.amount)],
    });
  const swiss = r.swiss_vat_return;
  if (swiss) {
    for (const figure of ['200', '289', '299'] as const)
      rows.push({ cells: ['swiss', figure, SWISS_LABELS[figure]!, a(swiss[figure]), ''] });
    for (const figure of ['302', '312', '342', '382'] as const) {
      rows.push({ cells: ['swiss', figure, SWISS_LABELS[figure]!, a(swiss[figure].base), a(swiss[figure].tax)] });
    }
    for (const figure of ['399', '400', '405', '479', '500', '510'] as const) {
      rows.push({
        cells: ['swiss', figure, SWISS_LABELS[figure]!, '', a(swiss[figure])],
        total: ['399', '479', '500', '510'].includes(figure),
      });
    }
  }
  return {
    title: 'VAT report',
    facts: [
      `Period: ${r.from} – ${r.to}`,
      `Currency: ${r.currency}`,
      ...(swiss ? ['Swiss VAT return: effective method'] : []),
    ],
    fileName: `vat_${r.from}_${r.to}`,
    columns: [
      { title: 'Section', numeric: false, width: 50 },
      { title: 'Code', numeric: false, width: 70 },
      { title: 'Description', numeric: false, width: 235 },
      { title: 'Base', numeric: true, width: 80 },
      { title: 'Tax', numeric: true, width: 80 },
    ],
    rows,
  };
}
