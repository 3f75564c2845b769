/**
 * docker-compose.citus.yml (the books on Citus, docs/operations.md "Past one Postgres"), checked
 * without a container engine like docker-compose.yml is (compose.test.ts): `docker-compose config`
 * validates the file; the profile holds a coordinator and two workers on the Citus image and the
 * one-shot that runs deploy/citus-distribute.sql, whose list of reference tables is the code's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { REFERENCE_TABLES } from '../../ledger-service/src/db/tenancy.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const compose = (...args: string[]) =>
  spawnSync('docker-compose', ['-f', 'docker-compose.citus.yml', '--profile', 'citus', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });

t.test('docker-compose.citus.yml: valid; a Citus coordinator, two workers and the distribution step', async (t) => {
  const valid = compose('config', '-q');
  t.equal(valid.status, 0, `docker-compose config -q: ${valid.error?.message ?? ''}${valid.stderr}`);
  const services = compose('config', '--services').stdout.split('\n').filter(Boolean).sort();
  t.same(services, ['citus-coordinator', 'citus-distribute', 'citus-worker-1', 'citus-worker-2']);
  const config = compose('config').stdout;
  t.equal(config.match(/image: citusdata\/citus:/g)?.length, 4, 'every service runs the Citus image');
  t.equal(config.match(/profiles:\s*\n\s*- citus/g)?.length, 4, 'all of them in the profile citus');
  t.match(config, /citus\.propagate_set_commands=local/, 'the tenant setting reaches the workers');
  t.match(config, /citus-distribute\.sql/, 'the distribution step runs the SQL file');
});

t.test('deploy/citus-distribute.sql makes exactly the declared reference tables', async (t) => {
  const sql = readFileSync(new URL('../../deploy/citus-distribute.sql', import.meta.url), 'utf8');
  const made = /create_reference_table\(t\) from unnest\(array\[([^\]]*)\]\)/.exec(sql)?.[1];
  const local = ['knex_migrations', 'knex_migrations_lock'];
  t.same(
    made
      ?.match(/'([^']+)'/g)
      ?.map((s) => s.slice(1, -1))
      .sort(),
    REFERENCE_TABLES.filter((n) => !local.includes(n)).sort(),
    'create_reference_table for each shared table (the migrations bookkeeping stays on the coordinator)',
  );
  const directory = /directory constant text\[\] := array\[([^\]]*)\]/.exec(sql)?.[1];
  t.same(
    directory
      ?.match(/'([^']+)'/g)
      ?.map((s) => s.slice(1, -1))
      .sort(),
    [...REFERENCE_TABLES].sort(),
    'every other table is distributed by company_id',
  );
});
