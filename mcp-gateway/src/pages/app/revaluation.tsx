/**
 * Books → Revaluation (`/books/{dataset}/revaluation`, docs/app.md, docs/year-end.md): the closing
 * date, a closing rate per foreign currency and whether to reverse on the next day; the answer
 * lists every item with its booked value, its value at the closing rate and the difference.
 * Texts from the message catalogue in the language the browser asks for.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { ledgerError } from './access.tsx';
import { bodyFields } from '../../http/bodyParser.ts';
import { tr } from './language.ts';
import { ColumnHeads, Csrf, NAV, Notice, numeric, renderPage, swissAmount } from './ui.tsx';

/** The currencies the form offers a rate for (a rate left empty is not sent). */
const CURRENCIES = ['EUR', 'USD', 'GBP'] as const;

interface RevaluationAnswer {
  journal_id: number | null;
  items: {
    kind: 'customer' | 'vendor' | 'bank';
    id: number;
    currency: string;
    open: number;
    old_value: number;
    new_value: number;
    difference: number;
  }[];
}

const ENTRY = NAV.flatMap((g) => g.entries).find((e) => e.key === 'revaluation')!;
/** The page's texts in its language (the person's choice, else the browser's: language.ts). */
const textsOf = (_ctx: Context) => tr;

async function show(ctx: Context, page: CompanyPage, status: number, result: unknown): Promise<void> {
  const t = textsOf(ctx);
  const base = ENTRY.path(page.company.dataset);
  await renderPage(
    ctx,
    status,
    { title: t('yearEnd.revaluation.title'), ...page, current: base },
    <>
      {result}
      <p class="hint">{t('yearEnd.revaluation.hint')}</p>
      <form method="post" action={base}>
        <Csrf token={page.csrf} />
        <label for="date">{t('yearEnd.revaluation.date')}</label>
        <input type="date" id="date" name="date" required />
        {CURRENCIES.map((currency) => (
          <>
            <label for={`rate-${currency}`}>{t('yearEnd.revaluation.rate', { currency })}</label>
            <input type="number" id={`rate-${currency}`} name={`rate_${currency}`} min="0.000001" step="any" />
          </>
        ))}
        <label>
          <input type="checkbox" name="reverse_next_day" value="1" checked /> {t('yearEnd.revaluation.reverse')}
        </label>
        <p>
          <button type="submit">{t('yearEnd.revaluation.submit')}</button>
        </p>
      </form>
    </>,
  );
}

function Result({ ctx, answer }: { ctx: Context; answer: RevaluationAnswer }) {
  const t = textsOf(ctx);
  return (
    <>
      <Notice kind="ok" id="revalued">
        {answer.journal_id === null
          ? t('yearEnd.revaluation.nothing')
          : t('yearEnd.revaluation.booked', { id: answer.journal_id })}
      </Notice>
      {answer.items.length ? (
        <div class="table-wrap">
          <table id="revaluation-items">
            <ColumnHeads
              columns={[
                t('yearEnd.revaluation.item'),
                numeric(t('yearEnd.revaluation.open')),
                numeric(t('yearEnd.revaluation.oldValue')),
                numeric(t('yearEnd.revaluation.newValue')),
                numeric(t('yearEnd.revaluation.difference')),
              ]}
            />
            <tbody>
              {answer.items.map((i) => (
                <tr>
                  <td>{t(`yearEnd.revaluation.${i.kind}`, { id: i.id })}</td>
                  <td class="num">
                    {i.currency} {swissAmount(i.open)}
                  </td>
                  <td class="num">{swissAmount(i.old_value)}</td>
                  <td class="num">{swissAmount(i.new_value)}</td>
                  <td class="num">{swissAmount(i.difference)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

export function revaluationPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) =>
    access.companyPage(
      ctx,
      textsOf(ctx)('yearEnd.revaluation.title'),
      'Revaluation needs the right to book journal entries.',
      ENTRY.allowed,
    );

  router.get('/books/:dataset/revaluation', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    await show(ctx, page, 200, null);
  });

  router.post('/books/:dataset/revaluation', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const fields = bodyFields(ctx);
    const rates: Record<string, number> = {};
    for (const currency of CURRENCIES) {
      const value = String(fields[`rate_${currency}`] ?? '').trim();
      if (value !== '') rates[currency] = Number(value);
    }
    const answer = await page.call('POST', '/system/revaluation', {
      date: String(fields.date ?? ''),
      rates,
      reverse_next_day: fields.reverse_next_day === '1',
    });
    if (answer.status !== 200) {
      return show(
        ctx,
        page,
        answer.status >= 500 ? 502 : 422,
        <Notice kind="error">{ledgerError(answer).message}</Notice>,
      );
    }
    await show(ctx, page, 200, <Result ctx={ctx} answer={answer.body as RevaluationAnswer} />);
  });
}
