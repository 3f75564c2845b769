/**
 * Books → Recurring invoices (`/books/{dataset}/recurring`): the company's recurring invoices
 * (rent, retainers) with their schedule, mode, next date and status; pausing and resuming one,
 * its next dates (`?preview={id}`), and a form for a new one of one item. The ledger checks the
 * template with the invoice rules and its job makes each invoice on its date (docs/invoices.md
 * "Recurring invoices"); texts come from the message catalogue in the browser's language.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import {
  displayAmount,
  formatDate,
  languageFromAcceptLanguage,
  RECURRING_MODES,
  RECURRING_UNITS,
  translatorFor,
} from '@ledger/shared';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { LedgerRefusal, listOf, refusalStatus, seeOther } from './access.tsx';
import { ColumnHeads, Csrf, NAV, Notice, numeric, renderPage } from './ui.tsx';
import { bodyFields } from '../../http/bodyParser.ts';

const ENTRY = NAV.flatMap((g) => g.entries).find((e) => e.path('d') === '/books/d/recurring')!;
const ID = /^[1-9]\d{0,15}$/;

type Unit = (typeof RECURRING_UNITS)[number];
type Mode = (typeof RECURRING_MODES)[number];

interface Recurring {
  id: number;
  name?: string;
  customer_id: number;
  template: { description?: string; items?: { description?: string }[] };
  schedule: { every: number; unit: Unit; day: number | 'last'; start: string; end?: string };
  mode: Mode;
  status: 'active' | 'paused' | 'ended';
  currency: string;
  grossAmount: number;
  next_date: string | null;
  invoice_count: number;
  last_error: string | null;
}

interface Customer {
  id: number;
  name: string;
}

const translator = (ctx: Context) => translatorFor(languageFromAcceptLanguage(ctx.get('Accept-Language')));
const DAYS = Array.from({ length: 28 }, (_, i) => String(i + 1));

/** The form's fields as typed, to show again after a refusal. */
type Fields = Readonly<Record<string, unknown>>;
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The write body from the form: one item; numbers as numbers, empty optional fields left out. */
function bodyOf(f: Fields) {
  const num = (v: unknown) => (text(v).trim() === '' ? Number.NaN : Number(text(v).replace(/'/g, '')));
  const day = text(f.day) === 'last' ? 'last' : num(f.day);
  const item = {
    description: text(f.item),
    quantity: num(f.quantity),
    price: num(f.price),
    account: text(f.account).trim(),
    ...(text(f.taxAccount).trim() ? { taxAccount: text(f.taxAccount).trim() } : {}),
  };
  return {
    template: {
      customer_id: num(f.customer),
      ...(text(f.description).trim() ? { description: text(f.description).trim() } : {}),
      items: [item],
    },
    schedule: {
      every: num(f.every),
      unit: text(f.unit),
      day,
      start: text(f.start),
      ...(text(f.end) ? { end: text(f.end) } : {}),
    },
    mode: text(f.mode),
  };
}

export function recurringPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) =>
    access.companyPage(
      ctx,
      'Recurring invoices',
      'Recurring invoices need the permission to read customer documents.',
      ENTRY.allowed,
    );

  async function show(ctx: Context, page: CompanyPage, status: number, top: unknown, typed: Fields = {}) {
    const t = translator(ctx);
    const base = ENTRY.path(page.company.dataset);
    const rows = await listOf<Recurring>(page, '/arap/recurring/customer?limit=200');
    const customers = await listOf<Customer>(page, '/arap/customer?limit=1000');
    const previewId = String(ctx.query.preview ?? '');
    const preview = ID.test(previewId)
      ? await listOf<{ date: string; grossAmount: number }>(
          page,
          `/arap/recurring/customer/${previewId}/preview?count=12`,
        )
      : undefined;
    const previewed = rows.find((r) => String(r.id) === previewId);
    const schedule = (r: Recurring) =>
      `${t('sales.every', { n: r.schedule.every, unit: t(`sales.unit.${r.schedule.unit}`) })}, ` +
      (r.schedule.day === 'last' ? t('sales.dayLast') : t('sales.onDay', { day: r.schedule.day }));
    const action = (r: Recurring, what: 'pause' | 'resume') => (
      <form method="post" action={`${base}/${r.id}/${what}`} class="inline">
        <Csrf token={page.csrf} />
        <button type="submit" data-action={what}>
          {t(`sales.${what}`)}
        </button>
      </form>
    );
    const value = (name: string, fallback = '') => text(typed[name]) || fallback;
    await renderPage(
      ctx,
      status,
      { title: t('sales.recurring'), ...page, current: base },
      <>
        {top}
        {rows.length === 0 ? (
          <p id="no-recurring">{t('sales.none')}</p>
        ) : (
          <div class="table-wrap">
            <table id="recurring">
              <ColumnHeads
                columns={[
                  t('sales.customer'),
                  t('sales.itemText'),
                  t('sales.schedule'),
                  t('sales.mode'),
                  t('sales.nextDate'),
                  numeric(t('sales.amount')),
                  t('sales.status'),
                  '',
                ]}
              />
              <tbody>
                {rows.map((r) => (
                  <tr data-recurring={r.id}>
                    <td>{r.name ?? ''}</td>
                    <td>{r.template.description ?? r.template.items?.[0]?.description ?? ''}</td>
                    <td>{schedule(r)}</td>
                    <td>{t(`sales.mode.${r.mode}`)}</td>
                    <td>{r.next_date ? formatDate(r.next_date) : ''}</td>
                    <td class="num">{displayAmount(r.grossAmount, r.currency)}</td>
                    <td data-status={r.status}>
                      {t(`sales.status.${r.status}`)}
                      {r.last_error ? (
                        <p class="field-error" data-last-error>
                          {t('sales.lastError')}: {r.last_error}
                        </p>
                      ) : null}
                    </td>
                    <td>
                      {r.status === 'active' ? action(r, 'pause') : null}
                      {r.status === 'paused' ? action(r, 'resume') : null}
                      {r.status === 'active' ? <a href={`${base}?preview=${r.id}`}>{t('sales.preview')}</a> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {preview && previewed ? (
          <div class="table-wrap">
            <table id="preview">
              <caption>
                {t('sales.preview')}: {previewed.name ?? ''}
              </caption>
              <ColumnHeads columns={[t('document.date'), numeric(t('sales.amount'))]} />
              <tbody>
                {preview.map((p) => (
                  <tr>
                    <td>{formatDate(p.date)}</td>
                    <td class="num">{displayAmount(p.grossAmount, previewed.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <h2>{t('sales.recurringNew')}</h2>
        <form method="post" action={base} id="new-recurring">
          <Csrf token={page.csrf} />
          <label for="customer">{t('sales.customer')}</label>
          <select id="customer" name="customer">
            {customers.map((c) => (
              <option value={String(c.id)} selected={value('customer') === String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
          <label for="item">{t('sales.itemText')}</label>
          <input type="text" id="item" name="item" value={value('item')} aria-describedby="period-hint" />
          <p id="period-hint" class="hint">
            {t('sales.periodHint')} <code>{'{month}'}</code> <code>{'{quarter}'}</code> <code>{'{year}'}</code>
          </p>
          <label for="quantity">{t('sales.quantity')}</label>
          <input type="text" id="quantity" name="quantity" inputmode="decimal" value={value('quantity', '1')} />
          <label for="price">{t('sales.price')}</label>
          <input type="text" id="price" name="price" inputmode="decimal" value={value('price')} />
          <label for="account">{t('sales.account')}</label>
          <input type="text" id="account" name="account" value={value('account')} />
          <label for="taxAccount">{t('sales.taxAccount')}</label>
          <input type="text" id="taxAccount" name="taxAccount" value={value('taxAccount')} />
          <label for="every">{t('sales.everyN')}</label>
          <input id="every" name="every" type="number" min="1" max="12" value={value('every', '1')} />
          <label for="unit">{t('sales.unit')}</label>
          <select id="unit" name="unit">
            {RECURRING_UNITS.map((u) => (
              <option value={u} selected={value('unit', 'month') === u}>
                {t(`sales.unit.${u}`)}
              </option>
            ))}
          </select>
          <label for="day">{t('sales.day')}</label>
          <select id="day" name="day">
            {[...DAYS, 'last'].map((d) => (
              <option value={d} selected={value('day', '1') === d}>
                {d === 'last' ? t('sales.dayLast') : d}
              </option>
            ))}
          </select>
          <label for="start">{t('sales.start')}</label>
          <input id="start" name="start" type="date" value={value('start')} />
          <label for="end">{t('sales.end')}</label>
          <input id="end" name="end" type="date" value={value('end')} />
          <label for="mode">{t('sales.mode')}</label>
          <select id="mode" name="mode">
            {RECURRING_MODES.map((m) => (
              <option value={m} selected={value('mode', 'draft') === m}>
                {t(`sales.mode.${m}`)}
              </option>
            ))}
          </select>
          <button type="submit">{t('sales.create')}</button>
        </form>
      </>,
    );
  }

  router.get('/books/:dataset/recurring', async (ctx) => {
    const page = await open(ctx);
    if (page) await show(ctx, page, 200, null);
  });

  router.post('/books/:dataset/recurring', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const fields = bodyFields(ctx);
    const answer = await page.call('POST', '/arap/recurring/customer', bodyOf(fields));
    if (answer.status !== 201) return show(ctx, page, refusalStatus(answer), <LedgerRefusal answer={answer} />, fields);
    await show(
      ctx,
      page,
      200,
      <Notice kind="ok" id="created">
        {translator(ctx)('sales.recurringCreated')}
      </Notice>,
    );
  });

  router.post('/books/:dataset/recurring/:id/:action', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const id = String(ctx.params.id);
    const what = String(ctx.params.action);
    if (!ID.test(id) || (what !== 'pause' && what !== 'resume')) {
      ctx.status = 404;
      return;
    }
    const answer = await page.call('POST', `/arap/recurring/customer/${id}/${what}`);
    if (answer.status === 200) return seeOther(ctx, ENTRY.path(page.company.dataset));
    await show(ctx, page, refusalStatus(answer), <LedgerRefusal answer={answer} />);
  });
}
