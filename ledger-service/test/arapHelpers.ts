/**
 * Helpers for the AR/AP transaction tests: a company with one vendor and one customer on a
 * real ledger, and direct reads of the posted ledger lines (under the company's RLS scope).
 */
import { withTenant } from '../src/db/knex.ts';
import { apiClient, createTestCompany, startTestLedger, type TestCompany } from './helpers.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export type Vc = 'vendor' | 'customer';
export const SIDES: Vc[] = ['vendor', 'customer'];

/** Accounts of the demo chart per side. */
export const CHART = {
  vendor: {
    control: '2000',
    otherControl: '1100',
    line: '6500',
    line2: '4000',
    tax: '1170',
    taxReduced: '1171',
    wrongTax: '2200',
    wrongLine: '3000',
  },
  customer: {
    control: '1100',
    otherControl: '2000',
    line: '3400',
    line2: '3000',
    tax: '2200',
    taxReduced: '2201',
    wrongTax: '1170',
    wrongLine: '6500',
  },
} as const;

export async function arapSetup(t: Teardown, opts: { currency?: string; fileLimit?: number } = {}) {
  const ledger = await startTestLedger(t, opts.fileLimit ? { fileLimit: opts.fileLimit } : {});
  const co = await createTestCompany(ledger, { currency: opts.currency });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const vendor = await api('POST', '/arap/vendor', { name: 'Acme Supplies' });
  const customer = await api('POST', '/arap/customer', { name: 'Globex Corp' });
  if (vendor.status !== 201 || customer.status !== 201)
    throw new Error(`party setup failed: ${JSON.stringify([vendor.body, customer.body])}`);
  const parties = {
    vendor: { id: vendor.body.id as number, number: vendor.body.vendornumber as string },
    customer: { id: customer.body.id as number, number: customer.body.customernumber as string },
  };

  /** A minimal valid document of a side. */
  const doc = (vc: Vc, extra: Record<string, unknown> = {}) => ({
    type: 'transaction',
    [`${vc}_id`]: parties[vc].id,
    invDate: '2024-03-15',
    documentNumber: `DOC-${Math.random().toString(36).slice(2, 10)}`,
    lines: [{ account: CHART[vc].line, amount: 100, taxAccount: CHART[vc].tax }],
    ...extra,
  });

  const q = <T>(fn: (tx: import('../src/db/knex.ts').Tx) => Promise<T>) => withTenant(ledger.db, co.company.id, fn);

  /** Sum of the posted ledger lines of one document (base currency), as a string. */
  const documentSum = (id: number) =>
    q(async (tx) =>
      String((await tx('ledger_entries').where({ transaction_id: id }).sum({ s: 'amount' }).first())?.s ?? '0'),
    );
  const entryCount = (id: number) =>
    q(async (tx) =>
      Number((await tx('ledger_entries').where({ transaction_id: id }).count({ n: '*' }).first())?.n ?? 0),
    );
  const companySum = () => q(async (tx) => String((await tx('ledger_entries').sum({ s: 'amount' }).first())?.s ?? '0'));
  // the tests read the audited JSON deeply (details.previous.lines…): rows as any, in tests only
  const audit = (id: number): Promise<any[]> =>
    q(async (tx) =>
      tx('audit_log')
        .where({ entity_id: String(id) })
        .whereLike('entity', '%_transaction')
        .orderBy('id')
        .select('action', 'details', 'via', 'user_id'),
    );

  return { ledger, co, api, parties, doc, q, documentSum, entryCount, companySum, audit };
}

export type ArapSetup = Awaited<ReturnType<typeof arapSetup>>;

export async function memberApi(
  s: ArapSetup,
  co: TestCompany,
  role: Parameters<TestCompany['addMember']>[0],
  limit: string | null = null,
) {
  const m = await co.addMember(role, limit);
  return apiClient(s.ledger.url, co.dataset, m.apiKey);
}

/** `Number(sum)` is exact for these small sums; compare as strings of the NUMERIC value. */
export function isZero(numericText: string): boolean {
  return /^-?0(\.0+)?$/.test(numericText);
}
