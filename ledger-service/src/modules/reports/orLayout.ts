import type { Decimal } from 'decimal.js';
import { amountJson, Money, type Language } from '@ledger/shared';

/**
 * The balance sheet and income statement laid out as the Swiss Code of Obligations requires
 * (Art. 959a minimum structure of the balance sheet, Art. 959b income statement by nature of
 * expense), docs/year-end.md "The layout of the Code of Obligations". Pure: the accounts with
 * their balances come in, the items in the law's order come out, every item listed (zero
 * when no account falls in it) with the accounts it sums. An account falls in an item by its
 * number in the Swiss SME chart (the chart's groups are the law's items); an account of
 * another number falls in its category's catch-all item (named below). Amounts have their
 * everyday sign: assets, liabilities, equity and revenue positive; expenses negative in the
 * income statement, where every item adds up to the year's result.
 */

type Labels = Record<Language, string>;
interface ItemDef {
  key: string;
  /** the law's numbering, e.g. `1.a` */
  number: string;
  label: Labels;
  /** account number ranges [from, to] (both included) of the Swiss SME chart */
  ranges: readonly (readonly [number, number])[];
}
interface GroupDef {
  key: string;
  number: string;
  label: Labels;
  items: readonly ItemDef[];
}

const item = (key: string, number: string, label: Labels, ...ranges: (readonly [number, number])[]): ItemDef => ({
  key,
  number,
  label,
  ranges,
});

const ASSETS: readonly GroupDef[] = [
  {
    key: 'current_assets',
    number: '1',
    label: { de: 'Umlaufvermögen', fr: 'Actifs circulants', it: 'Attivo circolante', en: 'Current assets' },
    items: [
      item(
        'cash',
        '1.a',
        {
          de: 'Flüssige Mittel und kurzfristig gehaltene Aktiven mit Börsenkurs',
          fr: 'Trésorerie et actifs cotés en bourse détenus à court terme',
          it: 'Liquidità e attivi detenuti a breve termine con un prezzo di borsa',
          en: 'Cash and short-term assets with a quoted market price',
        },
        [1000, 1099],
      ),
      item(
        'trade_receivables',
        '1.b',
        {
          de: 'Forderungen aus Lieferungen und Leistungen',
          fr: 'Créances résultant de la vente de biens et de prestations de services',
          it: 'Crediti risultanti da forniture e prestazioni',
          en: 'Trade receivables',
        },
        [1100, 1139],
      ),
      item(
        'other_receivables',
        '1.c',
        {
          de: 'Übrige kurzfristige Forderungen',
          fr: 'Autres créances à court terme',
          it: 'Altri crediti a breve termine',
          en: 'Other current receivables',
        },
        [1140, 1199],
      ),
      item(
        'inventories',
        '1.d',
        {
          de: 'Vorräte und nicht fakturierte Dienstleistungen',
          fr: 'Stocks et prestations de services non facturées',
          it: 'Scorte e prestazioni di servizi non fatturate',
          en: 'Inventories and unbilled services',
        },
        [1200, 1299],
      ),
      item(
        'prepaid',
        '1.e',
        {
          de: 'Aktive Rechnungsabgrenzungen',
          fr: 'Actifs de régularisation',
          it: 'Ratei e risconti attivi',
          en: 'Prepaid expenses and accrued income',
        },
        [1300, 1399],
      ),
    ],
  },
  {
    key: 'fixed_assets',
    number: '2',
    label: { de: 'Anlagevermögen', fr: 'Actifs immobilisés', it: 'Attivo fisso', en: 'Non-current assets' },
    items: [
      item(
        'financial_assets',
        '2.a',
        {
          de: 'Finanzanlagen',
          fr: 'Immobilisations financières',
          it: 'Investimenti finanziari',
          en: 'Financial assets',
        },
        [1400, 1479],
      ),
      item(
        'participations',
        '2.b',
        { de: 'Beteiligungen', fr: 'Participations', it: 'Partecipazioni', en: 'Participations' },
        [1480, 1499],
      ),
      item(
        'tangible',
        '2.c',
        {
          de: 'Sachanlagen',
          fr: 'Immobilisations corporelles',
          it: 'Immobilizzazioni materiali',
          en: 'Property, plant and equipment',
        },
        [1500, 1699],
      ),
      item(
        'intangible',
        '2.d',
        {
          de: 'Immaterielle Werte',
          fr: 'Immobilisations incorporelles',
          it: 'Valori immateriali',
          en: 'Intangible assets',
        },
        [1700, 1799],
      ),
      item(
        'unpaid_capital',
        '2.e',
        {
          de: 'Nicht einbezahltes Grund-, Gesellschafter- oder Stiftungskapital',
          fr: 'Capital social ou capital de fondation non libéré',
          it: 'Capitale sociale o capitale di fondazione non versato',
          en: 'Unpaid share capital',
        },
        [1800, 1899],
      ),
    ],
  },
];

const LIABILITIES_AND_EQUITY: readonly GroupDef[] = [
  {
    key: 'short_term_liabilities',
    number: '1',
    label: {
      de: 'Kurzfristiges Fremdkapital',
      fr: 'Capitaux étrangers à court terme',
      it: 'Capitale di terzi a breve termine',
      en: 'Current liabilities',
    },
    items: [
      item(
        'trade_payables',
        '1.a',
        {
          de: 'Verbindlichkeiten aus Lieferungen und Leistungen',
          fr: "Dettes résultant de l'achat de biens et de prestations de services",
          it: 'Debiti risultanti da forniture e prestazioni',
          en: 'Trade payables',
        },
        [2000, 2099],
      ),
      item(
        'short_term_interest_bearing',
        '1.b',
        {
          de: 'Kurzfristige verzinsliche Verbindlichkeiten',
          fr: 'Dettes à court terme portant intérêt',
          it: 'Debiti onerosi a breve termine',
          en: 'Current interest-bearing liabilities',
        },
        [2100, 2199],
      ),
      item(
        'other_short_term',
        '1.c',
        {
          de: 'Übrige kurzfristige Verbindlichkeiten',
          fr: 'Autres dettes à court terme',
          it: 'Altri debiti a breve termine',
          en: 'Other current liabilities',
        },
        [2200, 2299],
      ),
      item(
        'accrued',
        '1.d',
        {
          de: 'Passive Rechnungsabgrenzungen',
          fr: 'Passifs de régularisation',
          it: 'Ratei e risconti passivi',
          en: 'Accrued expenses and deferred income',
        },
        [2300, 2399],
      ),
    ],
  },
  {
    key: 'long_term_liabilities',
    number: '2',
    label: {
      de: 'Langfristiges Fremdkapital',
      fr: 'Capitaux étrangers à long terme',
      it: 'Capitale di terzi a lungo termine',
      en: 'Non-current liabilities',
    },
    items: [
      item(
        'long_term_interest_bearing',
        '2.a',
        {
          de: 'Langfristige verzinsliche Verbindlichkeiten',
          fr: 'Dettes à long terme portant intérêt',
          it: 'Debiti onerosi a lungo termine',
          en: 'Non-current interest-bearing liabilities',
        },
        [2400, 2499],
      ),
      item(
        'other_long_term',
        '2.b',
        {
          de: 'Übrige langfristige Verbindlichkeiten',
          fr: 'Autres dettes à long terme',
          it: 'Altri debiti a lungo termine',
          en: 'Other non-current liabilities',
        },
        [2500, 2599],
      ),
      item(
        'provisions',
        '2.c',
        {
          de: 'Rückstellungen sowie vom Gesetz vorgesehene ähnliche Positionen',
          fr: 'Provisions et postes analogues prévus par la loi',
          it: 'Accantonamenti e poste analoghe previste dalla legge',
          en: 'Provisions and similar items required by law',
        },
        [2600, 2799],
      ),
    ],
  },
  {
    key: 'equity',
    number: '3',
    label: { de: 'Eigenkapital', fr: 'Capitaux propres', it: 'Capitale proprio', en: 'Equity' },
    items: [
      item(
        'capital',
        '3.a',
        {
          de: 'Grund-, Gesellschafter- oder Stiftungskapital',
          fr: 'Capital social ou capital de fondation',
          it: 'Capitale sociale o capitale di fondazione',
          en: 'Share capital',
        },
        [2800, 2899],
      ),
      item(
        'capital_reserve',
        '3.b',
        {
          de: 'Gesetzliche Kapitalreserve',
          fr: 'Réserve légale issue du capital',
          it: 'Riserva legale da capitale',
          en: 'Statutory capital reserve',
        },
        [2900, 2949],
      ),
      item(
        'profit_reserve',
        '3.c',
        {
          de: 'Gesetzliche Gewinnreserve',
          fr: 'Réserve légale issue du bénéfice',
          it: 'Riserva legale da utili',
          en: 'Statutory retained earnings',
        },
        [2950, 2959],
      ),
      item(
        'voluntary_reserves',
        '3.d',
        {
          de: 'Freiwillige Gewinnreserven',
          fr: 'Réserves facultatives issues du bénéfice',
          it: 'Riserve facoltative da utili',
          en: 'Voluntary retained earnings',
        },
        [2960, 2969],
      ),
      item(
        'own_shares',
        '3.e',
        {
          de: 'Eigene Kapitalanteile (Minusposten)',
          fr: 'Propres parts du capital (poste négatif)',
          it: 'Quote proprie del capitale (posta negativa)',
          en: 'Own shares (negative item)',
        },
        [2980, 2989],
      ),
      item(
        'retained',
        '3.f',
        {
          de: 'Gewinnvortrag oder Verlustvortrag',
          fr: 'Bénéfice reporté ou perte reportée',
          it: 'Utile riportato o perdita riportata',
          en: 'Profit or loss carried forward',
        },
        [2970, 2978],
      ),
      item(
        'annual_result',
        '3.g',
        {
          de: 'Jahresgewinn oder Jahresverlust',
          fr: "Bénéfice ou perte de l'exercice",
          it: "Utile o perdita d'esercizio",
          en: 'Profit or loss for the year',
        },
        [2979, 2979],
      ),
    ],
  },
];

const INCOME_STATEMENT: readonly ItemDef[] = [
  item(
    'net_revenue',
    '1',
    {
      de: 'Nettoerlöse aus Lieferungen und Leistungen',
      fr: 'Produits nets des ventes de biens et de prestations de services',
      it: 'Ricavi netti da forniture e prestazioni',
      en: 'Net revenue from sales and services',
    },
    [3000, 3899],
  ),
  item(
    'inventory_change',
    '2',
    {
      de: 'Bestandesänderungen an unfertigen und fertigen Erzeugnissen sowie an nicht fakturierten Dienstleistungen',
      fr: 'Variation des stocks de produits semi-finis et finis et variation des prestations de services non facturées',
      it: 'Variazione delle scorte di prodotti semilavorati e finiti e delle prestazioni di servizi non fatturate',
      en: 'Change in inventories of unfinished and finished goods and in unbilled services',
    },
    [3900, 3999],
  ),
  item(
    'material',
    '3',
    { de: 'Materialaufwand', fr: 'Charges de matériel', it: 'Costi per il materiale', en: 'Cost of materials' },
    [4000, 4999],
  ),
  item(
    'personnel',
    '4',
    { de: 'Personalaufwand', fr: 'Charges de personnel', it: 'Costi per il personale', en: 'Personnel expenses' },
    [5000, 5999],
  ),
  item(
    'other_operating',
    '5',
    {
      de: 'Übriger betrieblicher Aufwand',
      fr: "Autres charges d'exploitation",
      it: "Altri costi d'esercizio",
      en: 'Other operating expenses',
    },
    [6000, 6799],
  ),
  item(
    'depreciation',
    '6',
    {
      de: 'Abschreibungen und Wertberichtigungen auf Positionen des Anlagevermögens',
      fr: "Amortissements et corrections de valeur sur les postes de l'actif immobilisé",
      it: "Ammortamenti e rettifiche di valore sulle poste dell'attivo fisso",
      en: 'Depreciation and impairment of non-current assets',
    },
    [6800, 6899],
  ),
  item(
    'financial',
    '7',
    {
      de: 'Finanzaufwand und Finanzertrag',
      fr: 'Charges et produits financiers',
      it: 'Costi e ricavi finanziari',
      en: 'Financial expenses and income',
    },
    [6900, 6999],
  ),
  item(
    'non_operating',
    '8',
    {
      de: 'Betriebsfremder Aufwand und betriebsfremder Ertrag',
      fr: 'Charges et produits hors exploitation',
      it: "Costi e ricavi estranei all'esercizio",
      en: 'Non-operating expenses and income',
    },
    [8000, 8499],
  ),
  item(
    'extraordinary',
    '9',
    {
      de: 'Ausserordentlicher, einmaliger oder periodenfremder Aufwand und Ertrag',
      fr: 'Charges et produits exceptionnels, uniques ou hors période',
      it: 'Costi e ricavi straordinari, unici o relativi ad altri periodi',
      en: 'Extraordinary, one-off or prior-period expenses and income',
    },
    [8500, 8899],
  ),
  item(
    'direct_taxes',
    '10',
    { de: 'Direkte Steuern', fr: 'Impôts directs', it: 'Imposte dirette', en: 'Direct taxes' },
    [8900, 8999],
  ),
];

const NET_INCOME_LABEL: Labels = {
  de: 'Jahresgewinn oder Jahresverlust',
  fr: "Bénéfice ou perte de l'exercice",
  it: "Utile o perdita d'esercizio",
  en: 'Profit or loss for the year',
};

const TITLES = {
  assets: { de: 'Aktiven', fr: 'Actifs', it: 'Attivi', en: 'Assets' },
  liabilities_and_equity: { de: 'Passiven', fr: 'Passifs', it: 'Passivi', en: 'Liabilities and equity' },
} as const;

/** An account with its balance (ledger sign) as the report rules computed it. */
export interface AccountAmount {
  accno: string;
  description: string;
  category: string;
  amount: Decimal;
}

const numberOf = (accno: string) => (/^\d{4}/.test(accno) ? Number(accno.slice(0, 4)) : Number.NaN);
const inRanges = (n: number, def: ItemDef) => def.ranges.some(([from, to]) => n >= from && n <= to);

/** The item of an account: by its number within the items allowed, else the catch-all. */
function itemOf(accno: string, items: readonly ItemDef[], fallback: string): string {
  const n = numberOf(accno);
  return items.find((d) => inRanges(n, d))?.key ?? fallback;
}

const BS_FALLBACK: Record<string, string> = { A: 'other_receivables', L: 'other_short_term', Q: 'voluntary_reserves' };

function side(
  groups: readonly GroupDef[],
  accounts: readonly AccountAmount[],
  /** what an item holds besides its accounts (the results not closed yet), everyday sign */
  extra: Record<string, Decimal>,
  sign: 1 | -1,
  language: Language,
  currency: string,
) {
  const all = groups.flatMap((g) => g.items);
  const byItem = new Map<string, AccountAmount[]>();
  for (const a of accounts) {
    const key = itemOf(a.accno, all, BS_FALLBACK[a.category] ?? 'other_receivables');
    byItem.set(key, [...(byItem.get(key) ?? []), a]);
  }
  let total = new Money(0);
  const out = groups.map((g) => {
    let groupTotal = new Money(0);
    const items = g.items.map((d) => {
      const members = byItem.get(d.key) ?? [];
      const sum = members
        .reduce((s, a) => s.plus(a.amount.times(sign)), new Money(0))
        .plus(extra[d.key] ?? new Money(0));
      groupTotal = groupTotal.plus(sum);
      return {
        key: d.key,
        number: d.number,
        label: d.label[language],
        amount: amountJson(sum, currency),
        accounts: members.map((a) => ({
          accno: a.accno,
          description: a.description,
          amount: amountJson(a.amount.times(sign), currency),
        })),
      };
    });
    total = total.plus(groupTotal);
    return { key: g.key, number: g.number, label: g.label[language], total: amountJson(groupTotal, currency), items };
  });
  return { groups: out, total };
}

/**
 * The balance sheet of Art. 959a: assets (positive) and liabilities and equity (positive),
 * the year's result not yet closed in item 3.g, earlier results not yet closed in 3.f.
 */
export function balanceSheetOr(
  input: {
    assets: readonly AccountAmount[];
    liabilities: readonly AccountAmount[];
    equity: readonly AccountAmount[];
    currentYearResult: Decimal;
    earlierYearsResult: Decimal;
  },
  language: Language,
  currency: string,
) {
  const assets = side(ASSETS, input.assets, {}, 1, language, currency);
  const right = side(
    LIABILITIES_AND_EQUITY,
    [...input.liabilities, ...input.equity],
    { annual_result: input.currentYearResult.negated(), retained: input.earlierYearsResult.negated() },
    -1,
    language,
    currency,
  );
  return {
    language,
    assets: { label: TITLES.assets[language], groups: assets.groups, total: amountJson(assets.total, currency) },
    liabilities_and_equity: {
      label: TITLES.liabilities_and_equity[language],
      groups: right.groups,
      total: amountJson(right.total, currency),
    },
  };
}

/**
 * The income statement of Art. 959b (nature of expense): items 1–10 in the law's order (revenue
 * positive, expenses negative) and item 11, the result, their sum. Class 7 (ancillary operations)
 * goes with the operating items: its revenue to 1, its expenses to 5.
 */
export function incomeStatementOr(accounts: readonly AccountAmount[], language: Language, currency: string) {
  const byItem = new Map<string, AccountAmount[]>();
  for (const a of accounts) {
    const n = numberOf(a.accno);
    const fallback = a.category === 'I' ? 'net_revenue' : 'other_operating';
    const key = n >= 7000 && n <= 7999 ? fallback : itemOf(a.accno, INCOME_STATEMENT, fallback);
    byItem.set(key, [...(byItem.get(key) ?? []), a]);
  }
  let result = new Money(0);
  const items = INCOME_STATEMENT.map((d) => {
    const members = byItem.get(d.key) ?? [];
    const sum = members.reduce((s, a) => s.minus(a.amount), new Money(0));
    result = result.plus(sum);
    return {
      key: d.key,
      number: d.number,
      label: d.label[language],
      amount: amountJson(sum, currency),
      accounts: members.map((a) => ({
        accno: a.accno,
        description: a.description,
        amount: amountJson(a.amount.negated(), currency),
      })),
    };
  });
  items.push({
    key: 'net_income',
    number: '11',
    label: NET_INCOME_LABEL[language],
    amount: amountJson(result, currency),
    accounts: [],
  });
  return { language, items };
}
