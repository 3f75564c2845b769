/**
 * Chart-of-accounts templates applied when a company is created. Links follow
 * SQL-Ledger: `AP`/`AR` control accounts, `AP_amount`/`AR_amount` line accounts,
 * `AP_tax`/`AR_tax` tax accounts, `AP_paid`/`AR_paid` payment (bank/cash) accounts.
 */
export interface TemplateAccount {
  accno: string;
  description: string;
  /** A asset, L liability, Q equity, I income, E expense */
  category: 'A' | 'L' | 'Q' | 'I' | 'E';
  link: string[];
}

export interface TemplateTax {
  accno: string;
  code: string;
  /** output, input, acquisition or zero-rated (docs/vat.md "Tax codes") */
  kind: 'output' | 'input' | 'acquisition' | 'zero';
  /** the VAT return figure its lines report under */
  figure: string;
  description: string;
  rate: string;
  validFrom: string;
  validTo: string | null;
}

export interface ChartTemplate {
  name: string;
  description: string;
  accounts: TemplateAccount[];
  taxes: TemplateTax[];
  /** default accounts the posting engine uses */
  defaults: {
    ap: string;
    ar: string;
    rounding: string;
    retainedEarnings: string;
    bank: string;
    fxGainLoss: string;
    reminderFee: string;
    /** the ESTV clearing account a VAT return's settlement books the tax due to */
    vatPayable: string;
    /** net-tax-rate method: the difference between the tax invoiced and the tax owed */
    netTaxDifference: string;
  };
}

const smallBusiness: ChartTemplate = {
  name: 'small-business',
  description: 'Small-business chart (Swiss SME layout) with VAT at the standard and reduced rates',
  accounts: [
    { accno: '1000', description: 'Cash', category: 'A', link: ['AR_paid', 'AP_paid'] },
    { accno: '1020', description: 'Bank', category: 'A', link: ['AR_paid', 'AP_paid'] },
    { accno: '1100', description: 'Accounts receivable', category: 'A', link: ['AR'] },
    { accno: '1170', description: 'Input VAT standard rate', category: 'A', link: ['AP_tax'] },
    { accno: '1171', description: 'Input VAT reduced rate', category: 'A', link: ['AP_tax'] },
    {
      accno: '1172',
      description: 'Input VAT on investments and other operating expenses',
      category: 'A',
      link: ['AP_tax'],
    },
    { accno: '1300', description: 'Prepaid expenses', category: 'A', link: ['AP_amount'] },
    { accno: '1500', description: 'Machinery and equipment', category: 'A', link: ['AP_amount'] },
    { accno: '1520', description: 'Office equipment and IT', category: 'A', link: ['AP_amount'] },
    { accno: '1509', description: 'Accumulated depreciation', category: 'A', link: [] },
    { accno: '2000', description: 'Accounts payable', category: 'L', link: ['AP'] },
    { accno: '2200', description: 'Output VAT standard rate', category: 'L', link: ['AR_tax'] },
    { accno: '2201', description: 'Output VAT reduced rate', category: 'L', link: ['AR_tax'] },
    { accno: '2202', description: 'Output VAT lodging rate', category: 'L', link: ['AR_tax'] },
    { accno: '2205', description: 'VAT zero-rated: exports (figure 220)', category: 'L', link: ['AR_tax'] },
    { accno: '2206', description: 'VAT zero-rated: supplies abroad (figure 221)', category: 'L', link: ['AR_tax'] },
    { accno: '2207', description: 'VAT exempt supplies (figure 230)', category: 'L', link: ['AR_tax'] },
    { accno: '2209', description: 'VAT settlement with the ESTV', category: 'L', link: [] },
    { accno: '2300', description: 'Accrued liabilities', category: 'L', link: [] },
    { accno: '2800', description: 'Share capital', category: 'Q', link: [] },
    { accno: '2970', description: 'Retained earnings', category: 'Q', link: [] },
    { accno: '2979', description: 'Profit or loss of the year', category: 'Q', link: [] },
    { accno: '3000', description: 'Sales of goods', category: 'I', link: ['AR_amount'] },
    { accno: '3400', description: 'Revenue from services', category: 'I', link: ['AR_amount'] },
    { accno: '3800', description: 'Discounts granted', category: 'I', link: ['AR_amount'] },
    { accno: '3809', description: 'Net tax rate differences', category: 'I', link: [] },
    { accno: '4000', description: 'Cost of materials', category: 'E', link: ['AP_amount'] },
    { accno: '4400', description: 'Purchased services', category: 'E', link: ['AP_amount'] },
    { accno: '5000', description: 'Salaries', category: 'E', link: ['AP_amount'] },
    { accno: '6000', description: 'Rent', category: 'E', link: ['AP_amount'] },
    { accno: '6100', description: 'Maintenance and repairs', category: 'E', link: ['AP_amount'] },
    { accno: '6200', description: 'Vehicle expenses', category: 'E', link: ['AP_amount'] },
    { accno: '6300', description: 'Insurance', category: 'E', link: ['AP_amount'] },
    { accno: '6400', description: 'Energy', category: 'E', link: ['AP_amount'] },
    { accno: '6500', description: 'Office supplies', category: 'E', link: ['AP_amount'] },
    { accno: '6510', description: 'Telephone and internet', category: 'E', link: ['AP_amount'] },
    { accno: '6570', description: 'IT and software', category: 'E', link: ['AP_amount'] },
    { accno: '6600', description: 'Advertising', category: 'E', link: ['AP_amount'] },
    { accno: '6700', description: 'Other operating expenses', category: 'E', link: ['AP_amount'] },
    { accno: '6800', description: 'Depreciation', category: 'E', link: [] },
    { accno: '6900', description: 'Bank charges and interest', category: 'E', link: ['AP_amount'] },
    { accno: '6950', description: 'Exchange rate differences', category: 'E', link: [] },
    { accno: '6960', description: 'Rounding differences', category: 'E', link: [] },
  ],
  taxes: [
    {
      accno: '1170',
      code: 'VAT-IN-STD',
      kind: 'input',
      figure: '400',
      description: 'Input VAT 7.7%',
      rate: '0.077',
      validFrom: '2018-01-01',
      validTo: '2023-12-31',
    },
    {
      accno: '1170',
      code: 'VAT-IN-STD',
      kind: 'input',
      figure: '400',
      description: 'Input VAT 8.1%',
      rate: '0.081',
      validFrom: '2024-01-01',
      validTo: null,
    },
    {
      accno: '1171',
      code: 'VAT-IN-RED',
      kind: 'input',
      figure: '400',
      description: 'Input VAT 2.5%',
      rate: '0.025',
      validFrom: '2018-01-01',
      validTo: '2023-12-31',
    },
    {
      accno: '1171',
      code: 'VAT-IN-RED',
      kind: 'input',
      figure: '400',
      description: 'Input VAT 2.6%',
      rate: '0.026',
      validFrom: '2024-01-01',
      validTo: null,
    },
    {
      accno: '2200',
      code: 'VAT-OUT-STD',
      kind: 'output',
      figure: '302',
      description: 'Output VAT 7.7%',
      rate: '0.077',
      validFrom: '2018-01-01',
      validTo: '2023-12-31',
    },
    {
      accno: '2200',
      code: 'VAT-OUT-STD',
      kind: 'output',
      figure: '302',
      description: 'Output VAT 8.1%',
      rate: '0.081',
      validFrom: '2024-01-01',
      validTo: null,
    },
    {
      accno: '2201',
      code: 'VAT-OUT-RED',
      kind: 'output',
      figure: '312',
      description: 'Output VAT 2.5%',
      rate: '0.025',
      validFrom: '2018-01-01',
      validTo: '2023-12-31',
    },
    {
      accno: '2201',
      code: 'VAT-OUT-RED',
      kind: 'output',
      figure: '312',
      description: 'Output VAT 2.6%',
      rate: '0.026',
      validFrom: '2024-01-01',
      validTo: null,
    },
    {
      accno: '1172',
      code: 'VAT-IN-INV',
      kind: 'input',
      figure: '405',
      description: 'Input VAT on investments 7.7%',
      rate: '0.077',
      validFrom: '2018-01-01',
      validTo: '2023-12-31',
    },
    {
      accno: '1172',
      code: 'VAT-IN-INV',
      kind: 'input',
      figure: '405',
      description: 'Input VAT on investments 8.1%',
      rate: '0.081',
      validFrom: '2024-01-01',
      validTo: null,
    },
    {
      accno: '2202',
      code: 'VAT-OUT-LODG',
      kind: 'output',
      figure: '342',
      description: 'Output VAT lodging 3.7%',
      rate: '0.037',
      validFrom: '2018-01-01',
      validTo: '2023-12-31',
    },
    {
      accno: '2202',
      code: 'VAT-OUT-LODG',
      kind: 'output',
      figure: '342',
      description: 'Output VAT lodging 3.8%',
      rate: '0.038',
      validFrom: '2024-01-01',
      validTo: null,
    },
    {
      accno: '2205',
      code: 'VAT-EXPORT',
      kind: 'zero',
      figure: '220',
      description: 'Exports (zero-rated)',
      rate: '0',
      validFrom: '2018-01-01',
      validTo: null,
    },
    {
      accno: '2206',
      code: 'VAT-ABROAD',
      kind: 'zero',
      figure: '221',
      description: 'Supplies abroad',
      rate: '0',
      validFrom: '2018-01-01',
      validTo: null,
    },
    {
      accno: '2207',
      code: 'VAT-EXEMPT',
      kind: 'zero',
      figure: '230',
      description: 'Exempt supplies',
      rate: '0',
      validFrom: '2018-01-01',
      validTo: null,
    },
  ],
  defaults: {
    ap: '2000',
    ar: '1100',
    rounding: '6960',
    retainedEarnings: '2970',
    bank: '1020',
    fxGainLoss: '6950',
    reminderFee: '3400',
    vatPayable: '2209',
    netTaxDifference: '3809',
  },
};

export const CHART_TEMPLATES: Record<string, ChartTemplate> = { [smallBusiness.name]: smallBusiness };
export const DEFAULT_CHART = smallBusiness.name;
