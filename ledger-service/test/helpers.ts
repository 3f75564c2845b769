/**
 * Test helpers: a real ledger on loopback against the real test Postgres database
 * (created by scripts/test-setup.ts), and companies with real users and API keys.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type LedgerConfig } from '../src/config.ts';
import { startLedger, type RunningLedger } from '../src/server.ts';
import { addMember, createCompany, type Company } from '../src/db/companies.ts';
import { createUser } from '../src/db/users.ts';
import { createApiKey } from '../src/db/apiKeys.ts';
import { loadEncryptionKey } from '../src/secretKey.ts';
import { withTenant } from '../src/db/knex.ts';
import { cliOwner, setUpSwissInvoicing } from '../src/demo.ts';
import type { Role } from '@ledger/shared';
import { assertAnswerMatchesContract } from './support/answerContract.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export function testConfig(overrides: Partial<LedgerConfig> = {}): LedgerConfig {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-test-'));
  return {
    ...loadConfig({
      DATABASE_URL: TEST_DATABASE_URL,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      LEDGER_PORT: '0',
      DATA_DIR: dataDir,
      // tests run the recurring-invoice job's rounds themselves (ledger.recurring.runDue)
      LEDGER_RECURRING_INTERVAL: '0',
    }),
    ...overrides,
  };
}

export async function startTestLedger(
  t: Teardown,
  overrides: Partial<LedgerConfig> = {},
): Promise<RunningLedger & { config: LedgerConfig }> {
  const config = testConfig(overrides);
  const ledger = await startLedger({ config });
  t.teardown(() => ledger.close());
  return { ...ledger, config };
}

export function uniqueDataset(prefix = 't'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export interface TestMember {
  userId: number;
  email: string;
  password: string;
  totpSecret: string;
  apiKey: string;
  apiKeyId: number;
  role: Role;
}

export interface TestCompany extends TestMember {
  company: Company;
  dataset: string;
  /** adds another member with its own key */
  addMember(role: Role, approvalLimit?: string | null): Promise<TestMember>;
}

export async function createTestCompany(
  ledger: RunningLedger & { config: LedgerConfig },
  /**
   * swissInvoicing: the demo's Swiss address, VAT number and CHF bank account (IBAN, QR-IBAN) as invoice bank account
   */
  opts: { role?: Role; approvalLimit?: string | null; currency?: string; swissInvoicing?: boolean } = {},
): Promise<TestCompany> {
  const dataset = uniqueDataset();
  // the accounts' names in English (the tests name them so); the company's own language stays the default
  const company = await createCompany(ledger.db, {
    dataset,
    name: `Test ${dataset}`,
    currency: opts.currency,
    accountLanguage: 'en',
  });
  const key = loadEncryptionKey(ledger.config);
  const addMemberFn = async (role: Role, approvalLimit: string | null = null): Promise<TestMember> => {
    const email = `${role}-${randomBytes(4).toString('hex')}@${dataset}.test`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const user = await createUser(ledger.db, key, { email, name: `${role} user`, password });
    await addMember(ledger.db, company.id, user.id, role, approvalLimit);
    const apiKey = await createApiKey(ledger.db, company.id, user.id, `${role} key`);
    return {
      userId: user.id,
      email,
      password,
      totpSecret: user.totp_secret,
      apiKey: apiKey.key,
      apiKeyId: apiKey.id,
      role,
    };
  };
  const owner = await addMemberFn(opts.role ?? 'owner', opts.approvalLimit ?? null);
  if (opts.swissInvoicing) {
    await withTenant(ledger.db, company.id, (tx) =>
      setUpSwissInvoicing({ tx, company, actor: cliOwner(owner.userId) }, `billing@${dataset}.test`),
    );
  }
  return { ...owner, company, dataset, addMember: addMemberFn };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A small HTTP client for one company's REST API with one key; every answer is checked against its contract. */
export function apiClient(baseUrl: string, dataset: string, apiKey: string | undefined) {
  return async function call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (apiKey) h['X-API-Key'] = apiKey;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(`${baseUrl}/client/${dataset}${path}`, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    assertAnswerMatchesContract({
      method,
      url: res.url,
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: parsed,
    });
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
}
