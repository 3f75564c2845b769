/**
 * System → Audit log (`/management/{dataset}/audit`): who changed what, when, and through what
 * (the app, an API key, an AI connection, the CLI), newest first, from `GET /system/audit` as
 * the person (`system.audit_log`). The filter by what (the entity, e.g. `customer_invoice`) is
 * the ledger's; the filters by who (part of the e-mail) and by way are applied here to the newest
 * 1,000 entries the ledger answers (the page says so).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { listOf } from './access.tsx';
import { tr } from './language.ts';
import { ColumnHeads, Field, navEntry, renderPage, when } from './ui.tsx';

interface AuditRow {
  id: number;
  at: string;
  user_email: string | null;
  via: string;
  via_label: string | null;
  entity: string;
  entity_id: number | null;
  action: string;
  details: unknown;
}

const ENTRY = navEntry('audit');
const title = () => tr('app.audit.title');
const LIMIT = 1000;
/** The ways a change comes in, as the filter offers them (the app's older `web` rows count as the app). */
const WAYS = ['app', 'api_key', 'ai_connection', 'cli'] as const;
type Way = (typeof WAYS)[number];
const wayOf = (via: string): string => (via === 'web' ? 'app' : via);
const wayName = (row: AuditRow): string => {
  const way = wayOf(row.via);
  const name = (WAYS as readonly string[]).includes(way) ? tr(`app.audit.via.${way as Way}`) : way;
  return row.via_label && way !== 'app' && way !== 'cli' ? `${name} (${row.via_label})` : name;
};
const ENTITY = /^[a-z_]{1,50}$/;

export function auditPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.audit.why'), ENTRY.allowed);

  async function show(ctx: Context, page: CompanyPage) {
    const base = ENTRY.path(page.company.dataset);
    const q = (name: string) =>
      typeof ctx.query[name] === 'string' ? String(ctx.query[name]).trim().slice(0, 200) : '';
    const who = q('who').toLowerCase();
    const what = ENTITY.test(q('what')) ? q('what') : '';
    const way = (WAYS as readonly string[]).includes(q('via')) ? q('via') : '';
    const all = await listOf<AuditRow>(page, `/system/audit?limit=${LIMIT}${what ? `&entity=${what}` : ''}`);
    const rows = all.filter(
      (r) => (!who || (r.user_email ?? '').toLowerCase().includes(who)) && (!way || wayOf(r.via) === way),
    );
    await renderPage(
      ctx,
      200,
      { title: title(), ...page, current: base },
      <>
        <form method="get" action={base} id="audit-filter">
          <Field id="f-who" name="who" label={tr('app.audit.who')} value={q('who')} />
          <Field id="f-what" name="what" label={tr('app.audit.what')} value={what} placeholder="customer_invoice" />
          <label for="f-via">{tr('app.audit.way')}</label>
          <select id="f-via" name="via">
            <option value="">{tr('app.invoices.allStatuses')}</option>
            {WAYS.map((w) => (
              <option value={w} selected={w === way}>
                {tr(`app.audit.via.${w}`)}
              </option>
            ))}
          </select>
          <p>
            <button type="submit" class="secondary">
              {tr('app.audit.filter')}
            </button>
          </p>
        </form>
        <p class="hint">{tr('app.audit.newest', { count: LIMIT })}</p>
        {rows.length ? (
          <div class="table-wrap">
            <table id="audit">
              <caption>{tr('app.audit.caption', { company: page.company.name })}</caption>
              <ColumnHeads
                columns={[
                  tr('app.audit.when'),
                  tr('app.audit.who'),
                  tr('app.audit.way'),
                  tr('app.audit.what'),
                  tr('app.audit.action'),
                ]}
              />
              <tbody>
                {rows.map((r) => (
                  <tr data-audit={r.id}>
                    <td>{when(r.at)}</td>
                    <td>{r.user_email ?? '—'}</td>
                    <td>{wayName(r)}</td>
                    <td>{`${r.entity}${r.entity_id === null ? '' : ` ${r.entity_id}`}`}</td>
                    <td>{r.action}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p id="no-audit">{tr('app.parties.none')}</p>
        )}
      </>,
    );
  }

  router.get(ENTRY.path(':dataset'), async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    await show(ctx, page);
  });
}
