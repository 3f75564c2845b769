import { withTenant, type Db } from '../../db/knex.ts';
import type { Company } from '../../db/companies.ts';
import { clockToday } from '../../domain/period.ts';
import type { Logger } from '../../logger.ts';
import { makeDueInvoice, noteFailure, type JobSettings } from './service.ts';
import { companiesToScan, dueRecurringIds } from './store.ts';

/**
 * The recurring-invoice job: every ledger process runs it (`LEDGER_RECURRING_INTERVAL` seconds
 * apart, default 60), and each round makes every invoice due by "today" — the day of
 * `LEDGER_CLOCK` when set (development and tests), else the UTC calendar day. Each invoice is
 * made in a transaction of its own that holds its template's row (SKIP LOCKED: a process that
 * finds it taken leaves it to the other) and moves the next date on, and the invoice's
 * (recurring_id, recurring_date) is unique: so however many processes run the job, and
 * however long the ledger was down, each date is invoiced exactly once, dated on its own day.
 * A date that fails (a closed period, a member gone) is noted on the template (`last_error`)
 * and tried again next round; the other templates go on.
 */

/** Postgres's deadlock_detected and serialization_failure. */
const TRANSIENT_CODES = new Set(['40P01', '40001']);

export interface RecurringJob {
  /** one round now (of the companies named, else of all): the number of invoices this process made */
  runDue(only?: { companyIds: number[] }): Promise<number>;
  stop(): Promise<void>;
}

export function startRecurringJob(deps: {
  db: Db;
  log: Logger;
  settings: JobSettings;
  /** LEDGER_CLOCK, read at each round (tests move it) */
  clock: () => string | undefined;
  /** seconds between rounds; 0: only runDue() */
  intervalSeconds: number;
}): RecurringJob {
  const { db, log, settings } = deps;
  let running: Promise<number> | undefined;
  let stopped = false;

  const runCompany = async (company: Company, today: string): Promise<number> => {
    const ids = await withTenant(db, company.id, (tx) => dueRecurringIds(tx, company.id, today));
    let made = 0;
    for (const id of ids) {
      let transient = 0;
      // one transaction per invoice: a template with several dates due makes them one after the other
      for (;;) {
        if (stopped) return made;
        try {
          const done = await withTenant(db, company.id, (tx) => makeDueInvoice(tx, company, settings, id, today));
          if (done === 'none') break;
          made++;
        } catch (err) {
          // a deadlock or serialization failure with another transaction (the mail sender, a request) is no
          // fault of the template: tried again at once, a few times
          if (TRANSIENT_CODES.has((err as { code?: unknown }).code as string) && ++transient < 3) continue;
          const reason = err instanceof Error ? err.message : String(err);
          log.warn(
            { companyId: company.id, recurringId: id, reason },
            'recurring invoice not made; retried next round',
          );
          await withTenant(db, company.id, (tx) => noteFailure(tx, company.id, id, reason)).catch(() => {});
          break;
        }
      }
    }
    return made;
  };

  const round = async (only?: { companyIds: number[] }): Promise<number> => {
    const today = clockToday(deps.clock());
    let made = 0;
    for (const company of await companiesToScan(db, only?.companyIds)) {
      if (stopped) break;
      made += await runCompany(company, today);
    }
    if (made > 0) log.info({ made, today }, 'recurring invoices made');
    return made;
  };

  // one round at a time in this process; a call meanwhile waits for it and runs its own after
  const runDue = async (only?: { companyIds: number[] }): Promise<number> => {
    while (running) await running.catch(() => 0);
    running = round(only);
    try {
      return await running;
    } finally {
      running = undefined;
    }
  };

  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped || deps.intervalSeconds <= 0) return;
    timer = setTimeout(() => {
      runDue()
        .catch((err: unknown) => log.error({ err }, 'recurring invoices: round failed'))
        .finally(schedule);
    }, deps.intervalSeconds * 1000);
    timer.unref();
  };
  schedule();

  return {
    runDue,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}
