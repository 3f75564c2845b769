/**
 * Books → Fixed assets (`/books/{dataset}/assets`, docs/app.md, docs/year-end.md): the asset
 * register with book values, a form to book depreciation up to a date (one journal entry; the
 * same date again books nothing) and one to add an asset. Texts from the message catalogue in
 * the page's language.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { ledgerError, listOf, seeOther } from './access.tsx';
import { bodyFields } from '../../http/bodyParser.ts';
import { tr } from './language.ts';
import { ColumnHeads, Csrf, NAV, Notice, numeric, renderPage, swissAmount } from './ui.tsx';

interface AssetRow {
  id: number;
  name: string;
  asset_account: string;
  acquired: string;
  cost: number;
  method: 'linear' | 'declining';
  depreciated: number;
  book_value: number;
  disposed: string | null;
}

const ENTRY = NAV.flatMap((g) => g.entries).find((e) => e.key === 'assets')!;

/** The page's texts in its language (the person's choice, else the browser's: language.ts). */
const textsOf = (_ctx: Context) => tr;

async function show(ctx: Context, page: CompanyPage, status: number, top: unknown): Promise<void> {
  const t = textsOf(ctx);
  const rows = await listOf<AssetRow>(page, '/assets');
  const base = ENTRY.path(page.company.dataset);
  const today = new Date().toISOString().slice(0, 10);
  await renderPage(
    ctx,
    status,
    { title: t('yearEnd.assets.title'), ...page, current: base },
    <>
      {top}
      <p class="hint">{t('yearEnd.assets.hint')}</p>
      {rows.length ? (
        <div class="table-wrap">
          <table id="assets">
            <caption>{t('yearEnd.assets.title')}</caption>
            <ColumnHeads
              columns={[
                t('yearEnd.assets.name'),
                t('yearEnd.assets.account'),
                t('yearEnd.assets.acquired'),
                t('yearEnd.assets.method'),
                numeric(t('yearEnd.assets.cost')),
                numeric(t('yearEnd.assets.depreciated')),
                numeric(t('yearEnd.assets.bookValue')),
              ]}
            />
            <tbody>
              {rows.map((a) => (
                <tr data-asset={a.id}>
                  <td>
                    {a.name}
                    {a.disposed ? ` (${t('yearEnd.assets.disposed', { date: a.disposed })})` : ''}
                  </td>
                  <td>{a.asset_account}</td>
                  <td>{a.acquired}</td>
                  <td>{t(a.method === 'linear' ? 'yearEnd.assets.linear' : 'yearEnd.assets.declining')}</td>
                  <td class="num">{swissAmount(a.cost)}</td>
                  <td class="num">{swissAmount(a.depreciated)}</td>
                  <td class="num">{swissAmount(a.book_value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-assets">{t('yearEnd.assets.none')}</p>
      )}
      <h2 id="run-heading">{t('yearEnd.assets.run')}</h2>
      <form method="post" action={`${base}/depreciation`} aria-labelledby="run-heading">
        <Csrf token={page.csrf} />
        <label for="to">{t('yearEnd.assets.runTo')}</label>
        <input type="date" id="to" name="to" required value={today} />
        <p>
          <button type="submit">{t('yearEnd.assets.run')}</button>
        </p>
      </form>
      <h2 id="add-heading">{t('yearEnd.assets.add')}</h2>
      <form method="post" action={base} aria-labelledby="add-heading">
        <Csrf token={page.csrf} />
        <label for="name">{t('yearEnd.assets.name')}</label>
        <input type="text" id="name" name="name" required maxlength={200} />
        <label for="asset_account">{t('yearEnd.assets.account')}</label>
        <input type="text" id="asset_account" name="asset_account" required maxlength={20} />
        <label for="expense_account">{t('yearEnd.assets.expenseAccount')}</label>
        <input type="text" id="expense_account" name="expense_account" required maxlength={20} value="6800" />
        <label for="accumulated_account">{t('yearEnd.assets.accumulatedAccount')}</label>
        <input type="text" id="accumulated_account" name="accumulated_account" maxlength={20} />
        <label for="acquired">{t('yearEnd.assets.acquired')}</label>
        <input type="date" id="acquired" name="acquired" required />
        <label for="cost">{t('yearEnd.assets.cost')}</label>
        <input type="number" id="cost" name="cost" required min="0.01" step="0.01" />
        <label for="residual">{t('yearEnd.assets.residual')}</label>
        <input type="number" id="residual" name="residual" min="0" step="0.01" value="0" />
        <label for="method">{t('yearEnd.assets.method')}</label>
        <select id="method" name="method">
          <option value="linear">{t('yearEnd.assets.linear')}</option>
          <option value="declining">{t('yearEnd.assets.declining')}</option>
        </select>
        <label for="life_months">{t('yearEnd.assets.lifeMonths')}</label>
        <input type="number" id="life_months" name="life_months" min="1" max="1200" step="1" />
        <label for="rate">{t('yearEnd.assets.rate')}</label>
        <input type="number" id="rate" name="rate" min="0.01" max="100" step="0.01" />
        <label for="frequency">{t('yearEnd.assets.frequency')}</label>
        <select id="frequency" name="frequency">
          <option value="year">{t('yearEnd.assets.year')}</option>
          <option value="quarter">{t('yearEnd.assets.quarter')}</option>
          <option value="month">{t('yearEnd.assets.month')}</option>
        </select>
        <p>
          <button type="submit">{t('yearEnd.assets.add')}</button>
        </p>
      </form>
    </>,
  );
}

/** The form's fields as the ledger's body: empty fields left out, numbers as numbers, the rate from percent. */
function assetBody(fields: Record<string, unknown>): Record<string, unknown> {
  const text = (name: string) => {
    const v = String(fields[name] ?? '').trim();
    return v === '' ? undefined : v;
  };
  const num = (name: string) => (text(name) === undefined ? undefined : Number(text(name)));
  const method = text('method');
  const rate = num('rate');
  return {
    name: text('name'),
    asset_account: text('asset_account'),
    expense_account: text('expense_account'),
    accumulated_account: text('accumulated_account'),
    acquired: text('acquired'),
    cost: num('cost'),
    residual: num('residual'),
    method,
    life_months: method === 'linear' ? num('life_months') : undefined,
    rate: method === 'declining' && rate !== undefined ? Number((rate / 100).toFixed(6)) : undefined,
    frequency: text('frequency'),
  };
}

export function fixedAssetsPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) =>
    access.companyPage(ctx, textsOf(ctx)('yearEnd.assets.title'), 'Fixed assets need the journal.', ENTRY.allowed);

  router.get('/books/:dataset/assets', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const t = textsOf(ctx);
    const booked = typeof ctx.query.booked === 'string' && /^\d+$/.test(ctx.query.booked) ? ctx.query.booked : null;
    const notice =
      ctx.query.notice === 'created' ? (
        <Notice kind="ok">{t('yearEnd.assets.created')}</Notice>
      ) : booked ? (
        <Notice kind="ok" id="booked">
          {t('yearEnd.assets.booked', { id: booked })}
        </Notice>
      ) : ctx.query.notice === 'nothing' ? (
        <Notice kind="ok" id="nothing-due">
          {t('yearEnd.assets.nothingDue')}
        </Notice>
      ) : null;
    await show(ctx, page, 200, notice);
  });

  router.post('/books/:dataset/assets', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const created = await page.call('POST', '/assets', assetBody(bodyFields(ctx)));
    if (created.status !== 201) {
      return show(
        ctx,
        page,
        created.status >= 500 ? 502 : 422,
        <Notice kind="error">{ledgerError(created).message}</Notice>,
      );
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=created`);
  });

  router.post('/books/:dataset/assets/depreciation', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const to = String(bodyFields(ctx).to ?? '');
    const run = await page.call('POST', '/assets/depreciation_run', { to });
    if (run.status !== 200) {
      return show(ctx, page, run.status >= 500 ? 502 : 422, <Notice kind="error">{ledgerError(run).message}</Notice>);
    }
    const journalId = (run.body as { journal_id: number | null }).journal_id;
    seeOther(
      ctx,
      `${ENTRY.path(page.company.dataset)}?${journalId === null ? 'notice=nothing' : `booked=${journalId}`}`,
    );
  });
}
