import type { Knex } from 'knex';
import { listedMigrations, type MigrationModule } from '@ledger/shared/migrate';
import * as m001 from './001_core.ts';
import * as m002 from './002_arap.ts';
import * as m003 from './003_totp_replay.ts';
import * as m004 from './004_file_hash.ts';
import * as m005 from './005_company_bank.ts';
import * as m006 from './006_services.ts';
import * as m007 from './007_invoices.ts';
import * as m008 from './008_mail.ts';
import * as m013 from './013_documents.ts';
import * as m009 from './009_payments.ts';
import * as m010 from './010_journal.ts';
import * as m012 from './012_bank.ts';
import * as m014 from './014_idempotency.ts';
import * as m011 from './011_report_indexes.ts';
import * as m015 from './015_payment_reference_sequence.ts';
import * as m016 from './016_documents_once.ts';
import * as m017 from './017_demo_users.ts';
import * as m019 from './019_events.ts';
import * as m020 from './020_company_keys_webhooks.ts';
import * as m025 from './025_mail_queue.ts';
import * as m039 from './039_dimensions.ts';
import * as m040 from './040_assets.ts';
import * as m041 from './041_revaluations.ts';
import * as m042 from './042_recurring_invoices.ts';
import * as m043 from './043_vat_return_formats.ts';
import * as m045 from './045_account_names.ts';
import * as m046 from './046_rendered_attachments.ts';
import * as m047 from './047_ledger_check.ts';
import * as m021 from './021_invitations.ts';
import * as m024 from './024_outbox_sending.ts';
import * as m018 from './018_company_keys.ts';
import * as m022 from './022_assistant_confirmations.ts';
import * as m023 from './023_serving_role.ts';
import * as m026 from './026_tax_codes.ts';
import * as m027 from './027_vat_returns.ts';
import * as m028 from './028_vat_period_lock.ts';
import * as m030 from './030_party_language.ts';
import * as m031 from './031_credit_notes.ts';
import * as m032 from './032_quotes.ts';
import * as m034 from './034_dunning_runs.ts';
import * as m035 from './035_bank_rules.ts';

/**
 * Migrations are listed here rather than discovered on disk, so they load the same
 * way under tsx, in tests and from the CLI. Append new ones at the end.
 */
const migrations: Record<string, MigrationModule> = {
  '001_core': m001,
  '002_arap': m002,
  '003_totp_replay': m003,
  '004_file_hash': m004,
  '005_company_bank': m005,
  '006_services': m006,
  '007_invoices': m007,
  '008_mail': m008,
  '009_payments': m009,
  '010_journal': m010,
  '012_bank': m012,
  '014_idempotency': m014,
  '011_report_indexes': m011,
  '013_documents': m013,
  '015_payment_reference_sequence': m015,
  '016_documents_once': m016,
  '017_demo_users': m017,
  '018_company_keys': m018,
  '019_events': m019,
  '020_company_keys_webhooks': m020,
  '021_invitations': m021,
  '022_assistant_confirmations': m022,
  '023_serving_role': m023,
  '024_outbox_sending': m024,
  '025_mail_queue': m025,
  '026_tax_codes': m026,
  '027_vat_returns': m027,
  '028_vat_period_lock': m028,
  '030_party_language': m030,
  '031_credit_notes': m031,
  '032_quotes': m032,
  '034_dunning_runs': m034,
  '035_bank_rules': m035,
  '039_dimensions': m039,
  '040_assets': m040,
  '041_revaluations': m041,
  '042_recurring_invoices': m042,
  '043_vat_return_formats': m043,
  '045_account_names': m045,
  '046_rendered_attachments': m046,
  '047_ledger_check': m047,
};

export const migrationSource: Knex.MigrationSource<string> = listedMigrations(migrations);
