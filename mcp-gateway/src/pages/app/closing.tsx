/**
 * Books → Closing (`/books/{dataset}/closing`, docs/app.md): the date the books are closed up to
 * (`GET/POST /system/close_books`) with a form to close them up to a later date (or, owners only,
 * reopen to an earlier one), and the fiscal years (`GET /system/fiscal_years`) with a button to
 * close each year that is over (`POST /system/fiscal_years/{year}/close`: its closing entry books
 * the year's result to retained earnings). The ledger decides; its refusal keeps what was typed.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { roleHas } from '@ledger/shared';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { LedgerRefusal, listOf, refusalStatus, refusedForm, seeOther } from './access.tsx';
import { bodyFields } from '../../http/bodyParser.ts';
import { tr } from './language.ts';
import { ColumnHeads, Csrf, day, Field, navEntry, Notice, type Refused, renderPage, shown } from './ui.tsx';

interface FiscalYear {
  year: number;
  start: string;
  end: string;
  closed: boolean;
  closing_entry_id?: number;
}

const ENTRY = navEntry('closing');
const YEAR = /^\d{4}$/;

export function closingPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, tr('app.closing.title'), tr('app.closing.why'), ENTRY.allowed);

  async function show(ctx: Context, page: CompanyPage, status: number, top: unknown, refused?: Refused) {
    const base = ENTRY.path(page.company.dataset);
    const [state, years] = await Promise.all([
      page.call('GET', '/system/close_books'),
      listOf<FiscalYear>(page, '/system/fiscal_years?limit=1000'),
    ]);
    const closedTo = state.status === 200 ? (state.body as { date: string | null }).date : null;
    const mayClose = roleHas(page.company.role, 'system.close_books');
    await renderPage(
      ctx,
      status,
      { title: tr('app.closing.title'), ...page, current: base },
      <>
        {top}
        <section aria-labelledby="books-heading">
          <h2 id="books-heading">{tr('app.closing.books')}</h2>
          <p id="closed-to" data-date={closedTo ?? ''}>
            {closedTo ? tr('app.closing.closedTo', { date: day(closedTo) }) : tr('app.closing.neverClosed')}
          </p>
          <p class="hint">{tr('app.closing.booksHint')}</p>
          {mayClose ? (
            <form method="post" action={base} id="close-books">
              <Csrf token={page.csrf} />
              <Field
                id="close-date"
                name="date"
                type="date"
                label={tr('app.closing.date')}
                value={shown(refused, 'date', '')}
                required
                refused={refused}
              />
              <label>
                <input type="checkbox" name="reopen" value="1" checked={shown(refused, 'reopen', '') === '1'} />{' '}
                {tr('app.closing.reopen')}
              </label>
              <p>
                <button type="submit">{tr('app.closing.closeBooks')}</button>
              </p>
            </form>
          ) : null}
        </section>
        <section aria-labelledby="years-heading">
          <h2 id="years-heading">{tr('app.closing.years')}</h2>
          <p class="hint">{tr('app.closing.yearsHint')}</p>
          {years.length ? (
            <div class="table-wrap">
              <table id="fiscal-years">
                <ColumnHeads
                  columns={[
                    tr('app.closing.year'),
                    tr('app.closing.from'),
                    tr('app.closing.to'),
                    tr('app.common.status'),
                    '',
                  ]}
                />
                <tbody>
                  {years.map((y) => (
                    <tr data-year={y.year}>
                      <td>{String(y.year)}</td>
                      <td>{day(y.start)}</td>
                      <td>{day(y.end)}</td>
                      <td>
                        {y.closed
                          ? tr('app.closing.yearClosed', { id: y.closing_entry_id ?? '' })
                          : tr('app.closing.yearOpen')}
                      </td>
                      <td>
                        {mayClose && !y.closed ? (
                          <form method="post" action={`${base}/years/${y.year}`} class="inline">
                            <Csrf token={page.csrf} />
                            <button type="submit" aria-label={tr('app.closing.closeYearNamed', { year: y.year })}>
                              {tr('app.closing.closeYear')}
                            </button>
                          </form>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p id="no-years">{tr('app.closing.noYears')}</p>
          )}
        </section>
      </>,
    );
  }

  router.get('/books/:dataset/closing', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const done = typeof ctx.query.done === 'string' ? ctx.query.done.slice(0, 300) : '';
    await show(ctx, page, 200, done ? <Notice kind="ok">{done}</Notice> : null);
  });

  router.post('/books/:dataset/closing', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const f = bodyFields(ctx);
    const date = String(f.date ?? '').trim();
    const reopen = f.reopen === '1';
    const answer = await page.call('POST', '/system/close_books', { date, ...(reopen ? { reopen: true } : {}) });
    if (answer.status !== 200) {
      return show(ctx, page, refusalStatus(answer), <LedgerRefusal answer={answer} />, refusedForm(f, answer));
    }
    const closed = (answer.body as { date: string | null }).date;
    const done = closed ? tr('app.closing.closedTo', { date: day(closed) }) : tr('app.closing.neverClosed');
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?done=${encodeURIComponent(done)}`);
  });

  router.post('/books/:dataset/closing/years/:year', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const year = String(ctx.params.year);
    if (!YEAR.test(year)) {
      return show(ctx, page, 404, <Notice kind="error">{tr('app.closing.noYears')}</Notice>);
    }
    const answer = await page.call('POST', `/system/fiscal_years/${year}/close`, {});
    if (answer.status !== 200) return show(ctx, page, refusalStatus(answer), <LedgerRefusal answer={answer} />);
    const closed = answer.body as FiscalYear;
    const done = tr('app.closing.yearDone', { year, id: closed.closing_entry_id ?? '' });
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?done=${encodeURIComponent(done)}`);
  });
}
