import { randomBytes } from 'node:crypto';
import { mcpUrl } from '@ledger/shared';
import type { Db } from './db/knex.ts';
import { withTenant } from './db/knex.ts';
import { addMember, createCompany, findCompanyByDataset } from './db/companies.ts';
import { createUser } from './db/users.ts';
import { createApiKey } from './db/apiKeys.ts';
import { createParty } from './modules/parties/store.ts';
import { recordAudit } from './db/audit.ts';
import { CLI_ACTOR, CLI_VIA, cliActor } from './cli/actor.ts';
import type { Actor } from './domain/actor.ts';
import { addBankAccount } from './modules/bank/service.ts';
import { changeCompanyProfile } from './modules/company/service.ts';
import type { ServiceContext } from './modules/serviceContext.ts';

/** What `ledger demo --json` prints and `npm start` writes to ./data/demo.json (docs/operations.md). */
export interface DemoInfo {
  api_url: string;
  dataset: string;
  base_url: string;
  mcp_url: string;
  api_key: string;
  user: { email: string; password: string; totp_secret: string };
}

const VENDORS = [
  {
    name: 'Papeterie Muster AG',
    address1: 'Bahnhofstrasse',
    street: '10',
    zipcode: '8001',
    city: 'Zürich',
    country: 'CH',
    curr: 'CHF',
    terms: 30,
    email: 'rechnungen@papeterie-muster.example',
  },
  {
    name: 'Swisscom (Schweiz) AG',
    address1: 'Alte Tiefenaustrasse',
    street: '6',
    zipcode: '3048',
    city: 'Worblaufen',
    country: 'CH',
    curr: 'CHF',
    terms: 30,
  },
  {
    name: 'Cloud Hosting GmbH',
    address1: 'Friedrichstrasse',
    street: '123',
    zipcode: '10117',
    city: 'Berlin',
    country: 'DE',
    curr: 'EUR',
    terms: 14,
    taxnumber: 'DE123456789',
  },
];

/** The demo's own bank account: valid test values (IBAN and QR-IBAN of the Swiss QR-bill examples). */
const BANK_ACCOUNT = {
  name: 'Demo Bank current account',
  iban: 'CH93 0076 2011 6238 5295 7',
  qr_iban: 'CH44 3199 9123 0008 8901 2',
  currency: 'CHF',
  account: '1020',
};

/** A complete Swiss address and a valid UID (check digit 8), so invoices and their QR-bill can be made at once. */
const PROFILE = {
  street: 'Bahnhofstrasse',
  house_number: '1',
  zip: '8001',
  city: 'Zürich',
  country: 'CH',
  vat_number: 'CHE-123.456.788 MWST',
  fx_gain_loss_account: '6950',
};

const CUSTOMERS = [
  {
    name: 'Bäckerei Beispiel GmbH',
    address1: 'Marktgasse',
    street: '5',
    zipcode: '3011',
    city: 'Bern',
    country: 'CH',
    curr: 'CHF',
    terms: 30,
    email: 'buchhaltung@baeckerei-beispiel.example',
  },
  {
    name: 'Alpine Consulting SA',
    address1: 'Rue du Rhône',
    street: '42',
    zipcode: '1204',
    city: 'Genève',
    country: 'CH',
    curr: 'CHF',
    terms: 10,
  },
];

/** An owner acting through the CLI (the demo's changes are audited as made via the CLI). */
export function cliOwner(userId: number): Actor {
  return { userId, role: 'owner', approvalLimit: null, via: CLI_VIA };
}

/**
 * The company's address in Zürich, a UID VAT number and a CHF bank account with IBAN and
 * QR-IBAN set as the invoice bank account: what invoices and their QR-bill need. The demo
 * runs it; tests get it with `createTestCompany(ledger, { swissInvoicing: true })`.
 */
export async function setUpSwissInvoicing(c: ServiceContext, email: string): Promise<{ bankAccountId: number }> {
  const bank = await addBankAccount(c, BANK_ACCOUNT);
  await changeCompanyProfile(c, { ...PROFILE, email, invoice_bank_account_id: bank.id });
  return { bankAccountId: bank.id };
}

/** `demo`, or `demo-xxxxxx` when `demo` is taken. */
async function freeDataset(db: Db): Promise<string> {
  if (!(await findCompanyByDataset(db, 'demo'))) return 'demo';
  return `demo-${randomBytes(3).toString('hex')}`;
}

/**
 * A company with the default chart and taxes, a Swiss address, VAT number and CHF bank
 * account (IBAN and QR-IBAN) for its invoices, a few vendors and customers, an owner with
 * a random password and TOTP secret, an API key, and AI connections switched on.
 * Every change is audited as made via the CLI.
 */
export async function createDemo(
  db: Db,
  encryptionKey: Buffer,
  opts: { dataset?: string; publicUrl: string },
): Promise<DemoInfo> {
  const dataset = opts.dataset ?? (await freeDataset(db));
  const company = await createCompany(db, { dataset, name: 'Demo Company AG', currency: 'CHF' });
  await db('companies').where({ id: company.id }).update({ ai_connections_enabled: true });
  const password = randomBytes(18).toString('base64url');
  const user = await createUser(db, encryptionKey, {
    email: `owner@${dataset}.example.com`,
    name: 'Demo Owner',
    password,
  });
  // marks the owner as a demo user: `ledger totp` prints its codes (migration 017)
  await db('users').where({ id: user.id }).update({ demo: true });
  await addMember(db, company.id, user.id, 'owner', null);
  const key = await createApiKey(db, company.id, user.id, 'demo');

  await withTenant(db, company.id, async (tx) => {
    await recordAudit(tx, company.id, CLI_ACTOR, 'company', company.id, 'create', { dataset, demo: true });
    await recordAudit(tx, company.id, CLI_ACTOR, 'company', company.id, 'update', { ai_connections_enabled: true });
    await recordAudit(tx, company.id, cliActor(user.id), 'membership', user.id, 'create', {
      email: user.email,
      role: 'owner',
    });
    await recordAudit(tx, company.id, cliActor(user.id), 'api_key', key.id, 'create', { label: key.label });
    await setUpSwissInvoicing({ tx, company, actor: cliOwner(user.id) }, `billing@${dataset}.example.com`);
    for (const [vc, parties] of [
      ['vendor', VENDORS],
      ['customer', CUSTOMERS],
    ] as const) {
      for (const p of parties) {
        const party = await createParty(tx, company, vc, p);
        await recordAudit(tx, company.id, CLI_ACTOR, vc, party.id, 'create', { name: party.name });
      }
    }
  });

  const apiUrl = opts.publicUrl.replace(/\/$/, '');
  return {
    api_url: apiUrl,
    dataset,
    base_url: `${apiUrl}/client/${dataset}`,
    mcp_url: mcpUrl(apiUrl, dataset),
    api_key: key.key,
    user: { email: user.email, password, totp_secret: user.totp_secret },
  };
}
