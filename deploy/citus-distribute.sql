-- The ledger's schema on Citus (docker-compose.citus.yml, docs/operations.md "Past one Postgres").
-- Run once on the coordinator after `ledger migrate` made the schema there (the migrations are
-- plain Postgres and run on the coordinator; Citus propagates the DDL of distributed tables).
-- Safe to read before running: it adds the two workers, copies the directory tables to every
-- node and distributes each books table by company_id, all co-located with the first, so one
-- company's rows of every table live on one worker and its foreign keys are checked there.

select citus_set_coordinator_host('citus-coordinator', 5432);
select citus_add_node('citus-worker-1', 5432);
select citus_add_node('citus-worker-2', 5432);

-- the tables shared by all companies: ledger-service/src/db/tenancy.ts REFERENCE_TABLES
-- (knex_migrations and knex_migrations_lock stay local on the coordinator, where migrations run)
select create_reference_table(t) from unnest(array['users', 'companies', 'memberships', 'api_keys', 'invitations']) as t;

-- ledger_entries carries the settled VAT period's lock, a statement trigger (migration 028,
-- docs/vat.md "The lock"): Citus distributes a table with a trigger only with this setting. The
-- trigger reads vat_returns, accounts, taxes and arap_lines of the same company (co-located);
-- it has not been run on a Citus cluster yet.
set citus.enable_unsafe_triggers to on;

-- every other table of the schema is a books table: distributed by company_id, each after the
-- books tables its foreign keys point at (a self-reference, like a reversal, does not count)
do $$
declare
  directory constant text[] := array['companies', 'users', 'memberships', 'api_keys', 'invitations', 'knex_migrations', 'knex_migrations_lock'];
  remaining text[];
  t text;
  first_table text;
  progressed boolean;
begin
  select array_agg(c.relname::text order by c.relname) into remaining
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = current_schema() and c.relkind = 'r' and c.relname <> all(directory);
  loop
    exit when coalesce(cardinality(remaining), 0) = 0;
    progressed := false;
    foreach t in array remaining loop
      if not exists (select 1 from pg_constraint f join pg_class r on r.oid = f.confrelid
                      where f.contype = 'f' and f.conrelid = t::regclass and r.relname <> t and r.relname = any(remaining)) then
        if first_table is null then
          perform create_distributed_table(t, 'company_id');
          first_table := t;
        else
          perform create_distributed_table(t, 'company_id', colocate_with => first_table);
        end if;
        remaining := array_remove(remaining, t);
        progressed := true;
      end if;
    end loop;
    if not progressed then
      raise exception 'foreign keys in a cycle among %', remaining;
    end if;
  end loop;
end
$$;
