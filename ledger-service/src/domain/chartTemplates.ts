import type { Language } from '@ledger/shared';

/**
 * Chart-of-accounts templates applied when a company is created. Links follow
 * SQL-Ledger: `AP`/`AR` control accounts, `AP_amount`/`AR_amount` line accounts,
 * `AP_tax`/`AR_tax` tax accounts, `AP_paid`/`AR_paid` payment (bank/cash) accounts.
 */
export interface TemplateAccount {
  accno: string;
  /** the account's name in each language: the company's language names it, reports may ask for another */
  names: Record<Language, string>;
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

/**
 * The Swiss SME chart of accounts (Kontenrahmen KMU / plan comptable PME / piano contabile PMI):
 * classes 1–2 balance sheet (assets, liabilities, equity), 3 operating revenue, 4 material and
 * goods, 5 personnel, 6 other operating expenses, depreciation and financial result, 7 ancillary
 * operations, 8 non-operating, extraordinary items and direct taxes, 9 closing accounts. Its
 * groups follow the items of Art. 959a/959b of the Code of Obligations (the `layout=or` of the
 * reports, modules/reports/orLayout.ts). The zero-rated VAT accounts 2205–2207 carry the VAT
 * return's figures 220/221/230, 6950/6960 the exchange and rounding differences.
 */
type Row = [string, TemplateAccount['category'], string[], Record<Language, string>];
const KMU_ROWS: Row[] = [
  ['1000', 'A', ['AR_paid', 'AP_paid'], { de: 'Kasse', fr: 'Caisse', it: 'Cassa', en: 'Cash' }],
  [
    '1020',
    'A',
    ['AR_paid', 'AP_paid'],
    { de: 'Bankguthaben', fr: 'Avoirs bancaires', it: 'Averi bancari', en: 'Bank' },
  ],
  ['1060', 'A', [], { de: 'Wertschriften', fr: 'Titres', it: 'Titoli', en: 'Securities' }],
  [
    '1100',
    'A',
    ['AR'],
    {
      de: 'Forderungen aus Lieferungen und Leistungen',
      fr: 'Créances résultant de livraisons et prestations',
      it: 'Crediti da forniture e prestazioni',
      en: 'Accounts receivable',
    },
  ],
  ['1109', 'A', [], { de: 'Delkredere', fr: 'Ducroire', it: 'Delcredere', en: 'Allowance for doubtful receivables' }],
  [
    '1140',
    'A',
    [],
    { de: 'Vorschüsse und Darlehen', fr: 'Avances et prêts', it: 'Anticipi e prestiti', en: 'Advances and loans' },
  ],
  [
    '1170',
    'A',
    ['AP_tax'],
    {
      de: 'Vorsteuer MWST Material, Waren, Dienstleistungen, Energie',
      fr: 'Impôt préalable TVA sur matériel, marchandises, prestations, énergie',
      it: 'Imposta precedente IVA su materiale, merci, prestazioni, energia',
      en: 'Input VAT standard rate',
    },
  ],
  [
    '1171',
    'A',
    ['AP_tax'],
    {
      de: 'Vorsteuer MWST reduzierter Satz',
      fr: 'Impôt préalable TVA taux réduit',
      it: 'Imposta precedente IVA aliquota ridotta',
      en: 'Input VAT reduced rate',
    },
  ],
  [
    '1172',
    'A',
    ['AP_tax'],
    {
      de: 'Vorsteuer MWST Investitionen, übriger Betriebsaufwand',
      fr: "Impôt préalable TVA sur investissements, autres charges d'exploitation",
      it: "Imposta precedente IVA su investimenti, altri costi d'esercizio",
      en: 'Input VAT on investments and other operating expenses',
    },
  ],
  [
    '1176',
    'A',
    [],
    { de: 'Verrechnungssteuer', fr: 'Impôt anticipé', it: 'Imposta preventiva', en: 'Withholding tax receivable' },
  ],
  [
    '1180',
    'A',
    [],
    {
      de: 'Forderungen gegenüber Sozialversicherungen und Vorsorgeeinrichtungen',
      fr: 'Créances envers les assurances sociales et institutions de prévoyance',
      it: 'Crediti verso assicurazioni sociali e istituti di previdenza',
      en: 'Receivables from social insurance and pension funds',
    },
  ],
  [
    '1200',
    'A',
    [],
    { de: 'Handelswaren', fr: 'Marchandises commerciales', it: 'Merci commerciali', en: 'Merchandise' },
  ],
  ['1210', 'A', [], { de: 'Rohstoffe', fr: 'Matières premières', it: 'Materie prime', en: 'Raw materials' }],
  ['1260', 'A', [], { de: 'Fertige Erzeugnisse', fr: 'Produits finis', it: 'Prodotti finiti', en: 'Finished goods' }],
  [
    '1280',
    'A',
    [],
    {
      de: 'Nicht fakturierte Dienstleistungen',
      fr: 'Travaux en cours',
      it: 'Prestazioni di servizi non fatturate',
      en: 'Unbilled services',
    },
  ],
  [
    '1300',
    'A',
    ['AP_amount'],
    {
      de: 'Bezahlter Aufwand des Folgejahres',
      fr: "Charges payées d'avance",
      it: 'Costi pagati in anticipo',
      en: 'Prepaid expenses',
    },
  ],
  [
    '1301',
    'A',
    [],
    { de: 'Noch nicht erhaltener Ertrag', fr: 'Produits à recevoir', it: 'Ricavi da incassare', en: 'Accrued income' },
  ],
  [
    '1400',
    'A',
    [],
    {
      de: 'Wertschriften des Anlagevermögens',
      fr: 'Titres à long terme',
      it: 'Titoli a lungo termine',
      en: 'Long-term securities',
    },
  ],
  ['1440', 'A', [], { de: 'Aktivdarlehen', fr: 'Prêts actifs', it: 'Prestiti attivi', en: 'Loans granted' }],
  [
    '1480',
    'A',
    [],
    { de: 'Beteiligungen', fr: 'Participations', it: 'Partecipazioni', en: 'Investments in subsidiaries' },
  ],
  [
    '1500',
    'A',
    ['AP_amount'],
    {
      de: 'Maschinen und Apparate',
      fr: 'Machines et appareils',
      it: 'Macchinari e apparecchi',
      en: 'Machinery and equipment',
    },
  ],
  [
    '1509',
    'A',
    [],
    {
      de: 'Wertberichtigungen Maschinen und Apparate',
      fr: 'Corrections de valeur machines et appareils',
      it: 'Rettifiche di valore macchinari e apparecchi',
      en: 'Accumulated depreciation',
    },
  ],
  [
    '1510',
    'A',
    ['AP_amount'],
    {
      de: 'Mobiliar und Einrichtungen',
      fr: 'Mobilier et installations',
      it: 'Mobilio e installazioni',
      en: 'Furniture and fixtures',
    },
  ],
  [
    '1520',
    'A',
    ['AP_amount'],
    {
      de: 'Büromaschinen, Informatik, Kommunikationstechnologie',
      fr: 'Machines de bureau, informatique, technologies de la communication',
      it: "Macchine d'ufficio, informatica, tecnologie di comunicazione",
      en: 'Office equipment and IT',
    },
  ],
  ['1530', 'A', ['AP_amount'], { de: 'Fahrzeuge', fr: 'Véhicules', it: 'Veicoli', en: 'Vehicles' }],
  [
    '1540',
    'A',
    ['AP_amount'],
    { de: 'Werkzeuge und Geräte', fr: 'Outillage et appareils', it: 'Utensili e attrezzi', en: 'Tools and devices' },
  ],
  [
    '1600',
    'A',
    [],
    {
      de: 'Geschäftsliegenschaften',
      fr: "Immeubles d'exploitation",
      it: 'Immobili aziendali',
      en: 'Business premises',
    },
  ],
  [
    '1700',
    'A',
    [],
    {
      de: 'Patente, Know-how, Lizenzen, Rechte, Entwicklungen',
      fr: 'Brevets, know-how, licences, droits, développements',
      it: 'Brevetti, know-how, licenze, diritti, sviluppi',
      en: 'Patents, know-how, licences, rights, developments',
    },
  ],
  ['1770', 'A', [], { de: 'Goodwill', fr: 'Goodwill', it: 'Goodwill', en: 'Goodwill' }],
  [
    '1850',
    'A',
    [],
    {
      de: 'Nicht einbezahltes Aktien-, Stamm-, Anteilschein- oder Stiftungskapital',
      fr: 'Capital-actions, capital social ou capital de fondation non libéré',
      it: 'Capitale azionario, sociale o di fondazione non versato',
      en: 'Unpaid share capital',
    },
  ],
  [
    '2000',
    'L',
    ['AP'],
    {
      de: 'Verbindlichkeiten aus Lieferungen und Leistungen (Kreditoren)',
      fr: "Dettes résultant d'achats et de prestations de services (créanciers)",
      it: 'Debiti per forniture e prestazioni (creditori)',
      en: 'Accounts payable',
    },
  ],
  [
    '2030',
    'L',
    [],
    {
      de: 'Erhaltene Anzahlungen',
      fr: 'Acomptes de clients',
      it: 'Anticipi ricevuti',
      en: 'Advance payments received',
    },
  ],
  [
    '2100',
    'L',
    [],
    { de: 'Bankverbindlichkeiten', fr: 'Dettes bancaires', it: 'Debiti bancari', en: 'Bank liabilities' },
  ],
  [
    '2200',
    'L',
    ['AR_tax'],
    {
      de: 'Geschuldete MWST (Umsatzsteuer) Normalsatz',
      fr: "TVA due (impôt sur le chiffre d'affaires) taux normal",
      it: "IVA dovuta (imposta sulla cifra d'affari) aliquota normale",
      en: 'Output VAT standard rate',
    },
  ],
  [
    '2201',
    'L',
    ['AR_tax'],
    {
      de: 'Geschuldete MWST reduzierter Satz',
      fr: 'TVA due taux réduit',
      it: 'IVA dovuta aliquota ridotta',
      en: 'Output VAT reduced rate',
    },
  ],
  [
    '2202',
    'L',
    ['AR_tax'],
    {
      de: 'Geschuldete MWST Sondersatz Beherbergung',
      fr: 'TVA due taux spécial hébergement',
      it: 'IVA dovuta aliquota speciale alloggio',
      en: 'Output VAT lodging rate',
    },
  ],
  [
    '2205',
    'L',
    ['AR_tax'],
    {
      de: 'MWST steuerbefreit: Exporte (Ziffer 220)',
      fr: 'TVA exonérée : exportations (chiffre 220)',
      it: 'IVA esente: esportazioni (cifra 220)',
      en: 'VAT zero-rated: exports (figure 220)',
    },
  ],
  [
    '2206',
    'L',
    ['AR_tax'],
    {
      de: 'MWST steuerbefreit: Leistungen im Ausland (Ziffer 221)',
      fr: "TVA exonérée : prestations à l'étranger (chiffre 221)",
      it: "IVA esente: prestazioni all'estero (cifra 221)",
      en: 'VAT zero-rated: supplies abroad (figure 221)',
    },
  ],
  [
    '2207',
    'L',
    ['AR_tax'],
    {
      de: 'MWST von der Steuer ausgenommen (Ziffer 230)',
      fr: "TVA exclue du champ de l'impôt (chiffre 230)",
      it: "IVA escluse dall'imposta (cifra 230)",
      en: 'VAT exempt supplies (figure 230)',
    },
  ],
  [
    '2209',
    'L',
    [],
    {
      de: 'Abrechnungskonto MWST',
      fr: 'Décompte TVA',
      it: 'Conto di conteggio IVA',
      en: 'VAT settlement with the ESTV',
    },
  ],
  [
    '2210',
    'L',
    [],
    {
      de: 'Sonstige kurzfristige Verbindlichkeiten',
      fr: 'Autres dettes à court terme',
      it: 'Altri debiti a breve termine',
      en: 'Other short-term liabilities',
    },
  ],
  [
    '2261',
    'L',
    [],
    {
      de: 'Beschlossene Ausschüttungen',
      fr: 'Dividendes décidés',
      it: 'Distribuzioni deliberate',
      en: 'Dividends declared',
    },
  ],
  [
    '2270',
    'L',
    [],
    {
      de: 'Verbindlichkeiten gegenüber Sozialversicherungen und Vorsorgeeinrichtungen',
      fr: 'Dettes envers les assurances sociales et institutions de prévoyance',
      it: 'Debiti verso assicurazioni sociali e istituti di previdenza',
      en: 'Liabilities to social insurance and pension funds',
    },
  ],
  [
    '2300',
    'L',
    [],
    { de: 'Noch nicht bezahlter Aufwand', fr: 'Charges à payer', it: 'Costi da pagare', en: 'Accrued liabilities' },
  ],
  [
    '2301',
    'L',
    [],
    {
      de: 'Erhaltener Ertrag des Folgejahres',
      fr: "Produits encaissés d'avance",
      it: 'Ricavi incassati in anticipo',
      en: 'Deferred income',
    },
  ],
  [
    '2330',
    'L',
    [],
    {
      de: 'Kurzfristige Rückstellungen',
      fr: 'Provisions à court terme',
      it: 'Accantonamenti a breve termine',
      en: 'Short-term provisions',
    },
  ],
  [
    '2400',
    'L',
    [],
    {
      de: 'Bankverbindlichkeiten langfristig',
      fr: 'Dettes bancaires à long terme',
      it: 'Debiti bancari a lungo termine',
      en: 'Long-term bank loans',
    },
  ],
  ['2450', 'L', [], { de: 'Darlehen', fr: 'Emprunts', it: 'Prestiti', en: 'Loans received' }],
  ['2451', 'L', [], { de: 'Hypotheken', fr: 'Hypothèques', it: 'Ipoteche', en: 'Mortgages' }],
  [
    '2500',
    'L',
    [],
    {
      de: 'Übrige langfristige Verbindlichkeiten',
      fr: 'Autres dettes à long terme',
      it: 'Altri debiti a lungo termine',
      en: 'Other long-term liabilities',
    },
  ],
  ['2600', 'L', [], { de: 'Rückstellungen', fr: 'Provisions', it: 'Accantonamenti', en: 'Provisions' }],
  [
    '2800',
    'Q',
    [],
    {
      de: 'Aktien-, Stamm-, Anteilschein- oder Stiftungskapital',
      fr: 'Capital-actions, capital social, capital de fondation',
      it: 'Capitale azionario, sociale o di fondazione',
      en: 'Share capital',
    },
  ],
  [
    '2900',
    'Q',
    [],
    {
      de: 'Gesetzliche Kapitalreserve',
      fr: 'Réserve légale issue du capital',
      it: 'Riserva legale da capitale',
      en: 'Statutory capital reserve',
    },
  ],
  [
    '2950',
    'Q',
    [],
    {
      de: 'Gesetzliche Gewinnreserve',
      fr: 'Réserve légale issue du bénéfice',
      it: 'Riserva legale da utili',
      en: 'Statutory retained earnings reserve',
    },
  ],
  [
    '2960',
    'Q',
    [],
    {
      de: 'Freiwillige Gewinnreserven',
      fr: 'Réserves facultatives issues du bénéfice',
      it: 'Riserve facoltative da utili',
      en: 'Voluntary retained earnings reserves',
    },
  ],
  [
    '2970',
    'Q',
    [],
    {
      de: 'Gewinnvortrag oder Verlustvortrag',
      fr: 'Bénéfice reporté ou perte reportée',
      it: 'Utile riportato o perdita riportata',
      en: 'Retained earnings',
    },
  ],
  [
    '2979',
    'Q',
    [],
    {
      de: 'Jahresgewinn oder Jahresverlust',
      fr: "Bénéfice de l'exercice ou perte de l'exercice",
      it: "Utile d'esercizio o perdita d'esercizio",
      en: 'Profit or loss of the year',
    },
  ],
  [
    '2980',
    'Q',
    [],
    {
      de: 'Eigene Aktien, Stammanteile oder Anteilscheine (Minusposten)',
      fr: 'Propres actions, parts sociales (poste négatif)',
      it: 'Azioni proprie, quote sociali (posta negativa)',
      en: 'Own shares (negative item)',
    },
  ],
  [
    '3000',
    'I',
    ['AR_amount'],
    {
      de: 'Produktionserlöse',
      fr: 'Ventes de produits fabriqués',
      it: 'Ricavi dalla produzione',
      en: 'Sales of goods',
    },
  ],
  [
    '3200',
    'I',
    ['AR_amount'],
    { de: 'Handelserlöse', fr: 'Ventes de marchandises', it: 'Ricavi da merci', en: 'Sales of merchandise' },
  ],
  [
    '3400',
    'I',
    ['AR_amount'],
    {
      de: 'Dienstleistungserlöse',
      fr: 'Ventes de prestations',
      it: 'Ricavi da prestazioni di servizi',
      en: 'Revenue from services',
    },
  ],
  [
    '3600',
    'I',
    ['AR_amount'],
    {
      de: 'Übrige Erlöse aus Lieferungen und Leistungen',
      fr: 'Autres ventes et prestations de services',
      it: 'Altri ricavi da forniture e prestazioni',
      en: 'Other revenue from sales and services',
    },
  ],
  [
    '3700',
    'I',
    [],
    { de: 'Eigenleistungen', fr: 'Prestations propres', it: 'Prestazioni proprie', en: 'Own work capitalised' },
  ],
  [
    '3800',
    'I',
    ['AR_amount'],
    { de: 'Erlösminderungen', fr: 'Déductions sur ventes', it: 'Diminuzioni di ricavi', en: 'Discounts granted' },
  ],
  [
    '3805',
    'I',
    [],
    {
      de: 'Verluste aus Forderungen, Veränderung Delkredere',
      fr: 'Pertes sur créances, variation du ducroire',
      it: 'Perdite su crediti, variazione delcredere',
      en: 'Losses on receivables',
    },
  ],
  [
    '3809',
    'I',
    [],
    {
      de: 'MWST Saldosteuersatz',
      fr: 'TVA taux de la dette fiscale nette',
      it: 'IVA aliquota saldo',
      en: 'Net tax rate differences',
    },
  ],
  [
    '3900',
    'I',
    [],
    {
      de: 'Bestandesänderungen unfertige und fertige Erzeugnisse',
      fr: 'Variation des stocks de produits semi-finis et finis',
      it: 'Variazione delle scorte di prodotti semilavorati e finiti',
      en: 'Change in inventories of goods',
    },
  ],
  [
    '3940',
    'I',
    [],
    {
      de: 'Bestandesänderungen nicht fakturierte Dienstleistungen',
      fr: 'Variation de la valeur des prestations non facturées',
      it: 'Variazione delle prestazioni non fatturate',
      en: 'Change in unbilled services',
    },
  ],
  [
    '4000',
    'E',
    ['AP_amount'],
    {
      de: 'Materialaufwand Produktion',
      fr: "Charges de matériel de l'atelier",
      it: 'Costi del materiale per la produzione',
      en: 'Cost of materials',
    },
  ],
  [
    '4200',
    'E',
    ['AP_amount'],
    {
      de: 'Handelswarenaufwand',
      fr: 'Achats de marchandises destinées à la revente',
      it: 'Costi per merci commerciali',
      en: 'Cost of merchandise',
    },
  ],
  [
    '4400',
    'E',
    ['AP_amount'],
    {
      de: 'Aufwand für bezogene Dienstleistungen',
      fr: 'Prestations de tiers',
      it: 'Costi per prestazioni di terzi',
      en: 'Purchased services',
    },
  ],
  [
    '4500',
    'E',
    ['AP_amount'],
    {
      de: 'Energieaufwand zur Leistungserstellung',
      fr: "Charges d'énergie pour l'exploitation",
      it: "Costi dell'energia per la produzione",
      en: 'Energy for production',
    },
  ],
  [
    '4900',
    'E',
    ['AP_amount'],
    {
      de: 'Aufwandminderungen',
      fr: 'Déductions obtenues sur achats',
      it: 'Diminuzioni di costi',
      en: 'Purchase discounts',
    },
  ],
  ['5000', 'E', ['AP_amount'], { de: 'Lohnaufwand', fr: 'Salaires', it: 'Salari', en: 'Salaries' }],
  [
    '5700',
    'E',
    ['AP_amount'],
    { de: 'Sozialversicherungsaufwand', fr: 'Charges sociales', it: 'Oneri sociali', en: 'Social security costs' },
  ],
  [
    '5800',
    'E',
    ['AP_amount'],
    {
      de: 'Übriger Personalaufwand',
      fr: 'Autres charges du personnel',
      it: 'Altri costi del personale',
      en: 'Other personnel costs',
    },
  ],
  ['6000', 'E', ['AP_amount'], { de: 'Raumaufwand', fr: 'Charges de locaux', it: 'Costi dei locali', en: 'Rent' }],
  [
    '6100',
    'E',
    ['AP_amount'],
    {
      de: 'Unterhalt, Reparaturen, Ersatz mobile Sachanlagen',
      fr: 'Entretien, réparations et remplacement des immobilisations corporelles meubles',
      it: 'Manutenzione, riparazioni, sostituzioni di immobilizzazioni mobiliari',
      en: 'Maintenance and repairs',
    },
  ],
  [
    '6200',
    'E',
    ['AP_amount'],
    {
      de: 'Fahrzeug- und Transportaufwand',
      fr: 'Charges de véhicules et de transport',
      it: 'Costi per veicoli e trasporti',
      en: 'Vehicle expenses',
    },
  ],
  [
    '6300',
    'E',
    ['AP_amount'],
    {
      de: 'Sachversicherungen, Abgaben, Gebühren, Bewilligungen',
      fr: 'Assurances-choses, droits, taxes, autorisations',
      it: 'Assicurazioni cose, tributi, tasse, autorizzazioni',
      en: 'Insurance',
    },
  ],
  [
    '6400',
    'E',
    ['AP_amount'],
    {
      de: 'Energie- und Entsorgungsaufwand',
      fr: "Charges d'énergie et évacuation des déchets",
      it: 'Costi per energia e smaltimento',
      en: 'Energy',
    },
  ],
  [
    '6500',
    'E',
    ['AP_amount'],
    { de: 'Verwaltungsaufwand', fr: "Charges d'administration", it: 'Costi amministrativi', en: 'Office supplies' },
  ],
  [
    '6510',
    'E',
    ['AP_amount'],
    { de: 'Telefon, Internet', fr: 'Téléphone, internet', it: 'Telefono, internet', en: 'Telephone and internet' },
  ],
  [
    '6570',
    'E',
    ['AP_amount'],
    {
      de: 'Informatikaufwand inkl. Leasing',
      fr: 'Charges informatiques y c. leasing',
      it: 'Costi informatici incl. leasing',
      en: 'IT and software',
    },
  ],
  ['6600', 'E', ['AP_amount'], { de: 'Werbeaufwand', fr: 'Publicité', it: 'Costi pubblicitari', en: 'Advertising' }],
  [
    '6700',
    'E',
    ['AP_amount'],
    {
      de: 'Sonstiger betrieblicher Aufwand',
      fr: "Autres charges d'exploitation",
      it: "Altri costi d'esercizio",
      en: 'Other operating expenses',
    },
  ],
  [
    '6800',
    'E',
    [],
    {
      de: 'Abschreibungen und Wertberichtigungen auf Positionen des Anlagevermögens',
      fr: 'Amortissements et corrections de valeur sur les immobilisations',
      it: 'Ammortamenti e rettifiche di valore sulle immobilizzazioni',
      en: 'Depreciation',
    },
  ],
  [
    '6900',
    'E',
    ['AP_amount'],
    { de: 'Finanzaufwand', fr: 'Charges financières', it: 'Costi finanziari', en: 'Bank charges and interest' },
  ],
  [
    '6950',
    'E',
    [],
    { de: 'Kursdifferenzen', fr: 'Différences de change', it: 'Differenze di cambio', en: 'Exchange rate differences' },
  ],
  [
    '6960',
    'E',
    [],
    {
      de: 'Rundungsdifferenzen',
      fr: "Différences d'arrondi",
      it: 'Differenze di arrotondamento',
      en: 'Rounding differences',
    },
  ],
  ['6970', 'I', [], { de: 'Finanzertrag', fr: 'Produits financiers', it: 'Ricavi finanziari', en: 'Financial income' }],
  [
    '7000',
    'I',
    [],
    {
      de: 'Ertrag Nebenbetrieb',
      fr: 'Produits accessoires',
      it: 'Ricavi da attività accessorie',
      en: 'Income from ancillary operations',
    },
  ],
  [
    '7010',
    'E',
    [],
    {
      de: 'Aufwand Nebenbetrieb',
      fr: 'Charges accessoires',
      it: 'Costi da attività accessorie',
      en: 'Expenses of ancillary operations',
    },
  ],
  [
    '7500',
    'I',
    [],
    {
      de: 'Ertrag betriebliche Liegenschaft',
      fr: "Produits des immeubles d'exploitation",
      it: 'Ricavi da immobili aziendali',
      en: 'Income from business premises',
    },
  ],
  [
    '7510',
    'E',
    [],
    {
      de: 'Aufwand betriebliche Liegenschaft',
      fr: "Charges des immeubles d'exploitation",
      it: 'Costi per immobili aziendali',
      en: 'Expenses of business premises',
    },
  ],
  [
    '8000',
    'E',
    [],
    {
      de: 'Betriebsfremder Aufwand',
      fr: 'Charges hors exploitation',
      it: "Costi estranei all'esercizio",
      en: 'Non-operating expenses',
    },
  ],
  [
    '8100',
    'I',
    [],
    {
      de: 'Betriebsfremder Ertrag',
      fr: 'Produits hors exploitation',
      it: "Ricavi estranei all'esercizio",
      en: 'Non-operating income',
    },
  ],
  [
    '8500',
    'E',
    [],
    {
      de: 'Ausserordentlicher, einmaliger oder periodenfremder Aufwand',
      fr: 'Charges extraordinaires, exceptionnelles ou hors période',
      it: 'Costi straordinari, unici o relativi ad altri periodi',
      en: 'Extraordinary, one-off or prior-period expenses',
    },
  ],
  [
    '8510',
    'I',
    [],
    {
      de: 'Ausserordentlicher, einmaliger oder periodenfremder Ertrag',
      fr: 'Produits extraordinaires, exceptionnels ou hors période',
      it: 'Ricavi straordinari, unici o relativi ad altri periodi',
      en: 'Extraordinary, one-off or prior-period income',
    },
  ],
  ['8900', 'E', [], { de: 'Direkte Steuern', fr: 'Impôts directs', it: 'Imposte dirette', en: 'Direct taxes' }],
  [
    '9100',
    'Q',
    [],
    { de: 'Eröffnungsbilanz', fr: "Bilan d'ouverture", it: "Bilancio d'apertura", en: 'Opening balance' },
  ],
  [
    '9200',
    'Q',
    [],
    { de: 'Gewinn und Verlust', fr: 'Compte de résultat', it: 'Conto economico', en: 'Profit and loss' },
  ],
];

const kmu: ChartTemplate = {
  name: 'kmu',
  description: 'Swiss SME chart (Kontenrahmen KMU) in German, French, Italian and English, with Swiss VAT',
  accounts: KMU_ROWS.map(([accno, category, link, names]) => ({ accno, category, link, names })),
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

export const CHART_TEMPLATES: Record<string, ChartTemplate> = { [kmu.name]: kmu };
export const DEFAULT_CHART = kmu.name;
