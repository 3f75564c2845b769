/**
 * The VAT return in its other formats (docs/vat.md "Formats"), over HTTP on a real ledger:
 * the eCH-0217 v2.0.0 file validated against the eCH schema kept in the repository
 * (ledger-service/schemas/ech/, xmllint compiled to WebAssembly) for both methods, both bases
 * and a correction, its figures those of the return; the form as PDF read back through
 * poppler's pdftotext in the company's language; refusals (no UID → 409, an Accept the
 * endpoint cannot answer → 406).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { validateXML } from 'xmllint-wasm';
import { arapSetup, type ArapSetup, type Vc } from '../../../test/arapHelpers.ts';
import { REPO_ROOT } from '../../../test/fixtures/bank/support.ts';

const ECH_DIR = join(REPO_ROOT, 'ledger-service', 'schemas', 'ech');

/**
 * The eCH schemas as xmllint gets them: every file under its own name, the imports'
 * `http://www.ech.ch/xmlns/…/<file>.xsd` addresses rewritten to those names in memory (no network).
 */
async function echSchemas() {
  const names = (await readdir(ECH_DIR)).filter((n) => n.endsWith('.xsd'));
  const files = await Promise.all(
    names.map(async (fileName) => ({
      fileName,
      contents: (await readFile(join(ECH_DIR, fileName), 'utf8')).replace(
        /schemaLocation="http:\/\/www\.ech\.ch\/xmlns\/[^"]*\/([^"/]+\.xsd)"/g,
        'schemaLocation="$1"',
      ),
    })),
  );
  return {
    main: files.find((f) => f.fileName === 'eCH-0217-2-0-0.xsd')!,
    imports: files.filter((f) => f.fileName !== 'eCH-0217-2-0-0.xsd'),
  };
}

async function validate(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const { main, imports } = await echSchemas();
  const r = await validateXML({
    xml: [{ fileName: 'return.xml', contents: xml }],
    schema: [main],
    preload: imports,
  });
  return { valid: r.valid, errors: r.errors.map((e) => e.rawMessage) };
}

const run = promisify(execFile);

/** The PDF's text in content order, white space squeezed. */
async function textOf(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-vat-pdf-'));
  try {
    await writeFile(join(dir, 'r.pdf'), pdf);
    const { stdout } = await run('pdftotext', ['-raw', '-enc', 'UTF-8', join(dir, 'r.pdf'), '-']);
    return stdout.replace(/\s+/g, ' ').trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function post(s: ArapSetup, vc: Vc, invDate: string, lines: Record<string, unknown>[]): Promise<number> {
  const r = await s.api('POST', `/arap/transaction/${vc}`, s.doc(vc, { invDate, lines, pending: '0' }));
  if (r.status !== 201) throw new Error(`posting failed: ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}

async function download(s: ArapSetup, id: number, accept: string) {
  const res = await fetch(`${s.ledger.url}/client/${s.co.dataset}/reports/vat/returns/${id}`, {
    headers: { 'X-API-Key': s.co.apiKey, Accept: accept },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
  };
}

/** The text of one element of the file (the first), or undefined. */
const element = (xml: string, name: string) =>
  new RegExp(`<eCH-0217:${name}>([^<]*)</eCH-0217:${name}>`).exec(xml)?.[1];

/** The effective method's example of docs/vat.md, in a shorter form. */
async function effectiveCompany(t: Parameters<typeof arapSetup>[0]) {
  const s = await arapSetup(t, { currency: 'CHF' });
  await s.api('POST', '/system/company', { name: 'Muster & Söhne AG', vat_number: 'CHE-123.456.789 MWST' });
  await post(s, 'customer', '2025-02-15', [{ account: '3400', amount: 1000, taxAccount: '2200' }]);
  await post(s, 'customer', '2025-02-18', [
    { account: '3000', amount: 500, taxAccount: '2201' },
    { account: '3400', amount: 200, taxAccount: '2200' },
  ]);
  await post(s, 'customer', '2025-02-20', [{ account: '3000', amount: 700, taxAccount: '2205' }]);
  await post(s, 'customer', '2025-03-01', [{ account: '3400', amount: 300 }]);
  await post(s, 'vendor', '2025-01-20', [{ account: '4000', amount: 400, taxAccount: '1170' }]);
  await post(s, 'vendor', '2025-03-03', [{ account: '6570', amount: 1000, taxAccount: '1172' }]);
  return s;
}

t.test('eCH-0217: the effective method, valid against the schema, the figures of the return', async (t) => {
  const s = await effectiveCompany(t);
  const r = (await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' })).body;
  const file = await download(s, r.id, 'application/xml');
  t.equal(file.status, 200);
  t.match(file.type, /^application\/xml/);
  const xml = file.body.toString('utf8');
  const checked = await validate(xml);
  t.ok(checked.valid, `valid against eCH-0217-2-0-0.xsd: ${checked.errors.join('; ')}`);
  t.match(xml, /<eCH-0217:VATDeclaration xmlns:eCH-0217="http:\/\/www\.ech\.ch\/xmlns\/eCH-0217\/2"/);
  t.equal(element(xml, 'uid'), 'CHE123456789', 'the UID from the VAT number');
  t.equal(element(xml, 'organisationName'), 'Muster &amp; Söhne AG', 'the name, escaped');
  t.equal(element(xml, 'reportingPeriodFrom'), '2025-01-01');
  t.equal(element(xml, 'reportingPeriodTill'), '2025-03-31');
  t.equal(element(xml, 'typeOfSubmission'), '1', 'an original');
  t.equal(element(xml, 'formOfReporting'), '1', 'agreed consideration');
  t.equal(element(xml, 'totalConsideration'), '2700.00', '200');
  t.equal(element(xml, 'suppliesToForeignCountries'), '700.00', '220');
  t.equal(element(xml, 'amountVariousDeduction'), '300.00', '280');
  t.notOk(element(xml, 'suppliesAbroad'), 'a zero figure is left out');
  const rates = [...xml.matchAll(/<eCH-0217:taxRate>([^<]*)<\/eCH-0217:taxRate>\s*<eCH-0217:turnover>([^<]*)</g)];
  t.same(
    rates.map((m) => [m[1], m[2]]),
    [
      ['8.10', '1200.00'],
      ['2.60', '500.00'],
    ],
    'the turnover per tax rate: 303 at 8.1 %, 313 at 2.6 %',
  );
  t.equal(element(xml, 'inputTaxMaterialAndServices'), '32.40', '400');
  t.equal(element(xml, 'inputTaxInvestments'), '81.00', '405');
  t.equal(element(xml, 'payableTax'), '-3.20', 'the credit as a negative payable tax');

  // the schema check fails what it should: a file without payableTax is refused
  const broken = xml.replace(/\s*<eCH-0217:payableTax>[^<]*<\/eCH-0217:payableTax>/, '');
  t.notOk((await validate(broken)).valid, 'the validation is not a formality');

  // a correction is typeOfSubmission 2
  await post(s, 'customer', '2025-03-30', [{ account: '3400', amount: 100, taxAccount: '2200' }]);
  const c = (await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31', type: 'correction' }))
    .body;
  const correction = (await download(s, c.id, 'application/xml')).body.toString('utf8');
  t.ok((await validate(correction)).valid, 'the correction is valid too');
  t.equal(element(correction, 'typeOfSubmission'), '2');
  t.equal(element(correction, 'totalConsideration'), '100.00', 'the differences against the original');
  t.equal(element(correction, 'payableTax'), '8.10');
});

t.test('eCH-0217: the net tax rate method and received consideration', async (t) => {
  const s = await arapSetup(t, { currency: 'CHF' });
  const settings = await s.api('POST', '/system/company', {
    vat_number: 'CHE-123.456.789',
    vat_method: 'net_tax',
    vat_period: 'half_year',
    net_tax_rates: [{ rate: 0.062, description: 'Software development' }],
  });
  t.equal(settings.status, 200, JSON.stringify(settings.body));
  await post(s, 'customer', '2025-02-15', [{ account: '3400', amount: 6000, taxAccount: '2200' }]);
  await post(s, 'customer', '2025-05-20', [{ account: '3400', amount: 4000, taxAccount: '2200' }]);
  await post(s, 'customer', '2025-06-01', [{ account: '3000', amount: 1000, taxAccount: '2205' }]);
  const r = (await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-06-30' })).body;
  const xml = (await download(s, r.id, 'application/xml')).body.toString('utf8');
  const checked = await validate(xml);
  t.ok(checked.valid, checked.errors.join('; '));
  t.match(xml, /<eCH-0217:netTaxRateMethod>\s*<eCH-0217:suppliesPerTaxRate>\s*<eCH-0217:taxRate>6.20</);
  t.equal(element(xml, 'turnover'), '10810.00', 'the gross turnover at the net tax rate (323)');
  t.equal(element(xml, 'payableTax'), '670.22');

  const s2 = await arapSetup(t, { currency: 'CHF' });
  await s2.api('POST', '/system/company', { vat_number: 'CHE-123.456.789', vat_basis: 'received' });
  const sale = await post(s2, 'customer', '2025-02-10', [{ account: '3400', amount: 1000, taxAccount: '2200' }]);
  await s2.api('POST', '/arap/payment/customer', {
    account: '1020',
    document_id: sale,
    amount: 540.5,
    date: '2025-03-05',
  });
  const q1 = (await s2.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' })).body;
  const received = (await download(s2, q1.id, 'application/xml')).body.toString('utf8');
  t.ok((await validate(received)).valid);
  t.equal(element(received, 'formOfReporting'), '2', 'received consideration');
  t.equal(element(received, 'turnover'), '500.00', 'what was paid');
});

t.test('the form as PDF, in the company language, reads back through pdftotext', async (t) => {
  const s = await effectiveCompany(t);
  const r = (await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' })).body;
  const pdf = await download(s, r.id, 'application/pdf');
  t.equal(pdf.status, 200);
  t.equal(pdf.type, 'application/pdf');
  const de = await textOf(pdf.body);
  for (const expected of [
    'MWST-Abrechnung 01.01.2025 – 31.03.2025',
    'Muster & Söhne AG',
    'UID: CHE-123.456.789 MWST',
    'Vereinbarte Entgelte',
    'I Umsatz',
    '200 Total der vereinbarten bzw. vereinnahmten Entgelte 2’700.00',
    '220 Von der Steuer befreite Leistungen (u. a. Exporte) 700.00',
    '299 Steuerbarer Gesamtumsatz 1’700.00',
    'II Steuerberechnung',
    '303 Leistungen zum Normalsatz 8,1 % (ab 1.1.2024) 1’200.00 97.20',
    '313 Leistungen zum reduzierten Satz 2,6 % (ab 1.1.2024) 500.00 13.00',
    '399 Total geschuldete Steuer 110.20',
    '405 Vorsteuer auf Investitionen und übrigem Betriebsaufwand 81.00',
    '510 Guthaben der steuerpflichtigen Person 3.20',
  ]) {
    t.ok(de.includes(expected.replace(/’/g, "'")), `de: "${expected}" in ${de}`);
  }
  for (const [language, expected] of [
    ['fr', ['Décompte TVA', 'I Chiffre d’affaires', '303 Prestations au taux normal de 8,1 % (dès le 1.1.2024)']],
    ['it', ['Rendiconto IVA', 'II Calcolo dell’imposta', '510 Credito a favore del contribuente 3.20']],
    ['en', ['VAT return', 'II Tax calculation', '479 Total input tax 113.40']],
  ] as const) {
    await s.api('POST', '/system/company', { language });
    const text = await textOf((await download(s, r.id, 'application/pdf')).body);
    for (const e of expected) t.ok(text.includes(e), `${language}: "${e}" in ${text}`);
  }
});

t.test('refusals: no UID for the file, an Accept the endpoint cannot answer', async (t) => {
  const s = await arapSetup(t, { currency: 'CHF' });
  await post(s, 'customer', '2025-02-15', [{ account: '3400', amount: 100, taxAccount: '2200' }]);
  const r = (await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' })).body;
  await s.api('POST', '/system/company', { vat_number: null });
  const noUid = await download(s, r.id, 'application/xml');
  t.equal(noUid.status, 409);
  t.match(JSON.parse(noUid.body.toString('utf8')).error.message, /UID/);
  t.equal((await download(s, r.id, 'text/csv')).status, 406);
  t.equal((await download(s, r.id, 'application/pdf')).status, 200, 'the form needs no UID');
});
