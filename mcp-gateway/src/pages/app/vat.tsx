/**
 * Books → VAT (`/books/{dataset}/vat`): the company's VAT returns, a form to prepare one, and a
 * page per return with its form figures, the ledger lines behind a figure (drill-down), the
 * settle button and the downloads of the form (PDF) and the eCH-0217 file (XML) (docs/vat.md).
 * Texts from the shared catalogue (`vat.*`) in the person's language (Accept-Language); the
 * ledger computes, freezes and settles and writes the files.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { contracts, ResponseOf } from '@ledger/shared';
import { languageFromAcceptLanguage, type MessageKey, translatorFor } from '@ledger/shared/i18n/index';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { LedgerRefusal, ledgerError, listOf, readOr404, seeOther } from './access.tsx';
import { ColumnHeads, Csrf, Notice, navEntry, numeric, renderErrorPage, renderPage, swissAmount } from './ui.tsx';

type VatReturn = ResponseOf<typeof contracts.getVatReturn>;
type FigureLines = ResponseOf<typeof contracts.getVatReturnFigure>;

const ENTRY = navEntry('vat');
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[1-9]\d{0,15}$/;
const FIGURE = /^[0-9]{3}(_tax)?$/;

const TYPE_KEY = { original: 'vat.type.original', correction: 'vat.type.correction' } as const;
const STATUS_KEY = { draft: 'vat.status.draft', settled: 'vat.status.settled' } as const;
const METHOD_KEY = { effective: 'vat.method.effective', net_tax: 'vat.method.net_tax' } as const;

const textsOf = (ctx: Context) => translatorFor(languageFromAcceptLanguage(ctx.get('accept-language')));

/** The wording of a figure key: "303_tax" is the tax of figure 303. */
function figureLabel(t: ReturnType<typeof textsOf>, key: string): string {
  const figure = key.slice(0, 3);
  const label = t(`vat.figure.${figure}` as MessageKey);
  return key.endsWith('_tax') ? `${label}: ${t('vat.tax')}` : label;
}

export function vatPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) =>
    access.companyPage(ctx, 'Books → VAT', 'VAT returns need the reports permission.', ENTRY.allowed);

  async function listPage(ctx: Context, page: CompanyPage, status: number, notice?: unknown) {
    const t = textsOf(ctx);
    const returns = await listOf<VatReturn>(page, '/reports/vat/returns?limit=100');
    const base = ENTRY.path(page.company.dataset);
    await renderPage(
      ctx,
      status,
      { title: t('vat.returns'), ...page, current: base },
      <>
        {notice}
        <form method="post" action={base} id="prepare">
          <Csrf token={page.csrf} />
          <label for="from">{t('vat.from')}</label>
          <input type="date" id="from" name="from" required />
          <label for="to">{t('vat.to')}</label>
          <input type="date" id="to" name="to" required />
          <label for="type">{t('vat.type')}</label>
          <select id="type" name="type">
            <option value="original">{t('vat.type.original')}</option>
            <option value="correction">{t('vat.type.correction')}</option>
          </select>
          <p>
            <button type="submit">{t('vat.prepare')}</button>
          </p>
        </form>
        {returns.length === 0 ? (
          <p id="no-returns">{t('vat.none')}</p>
        ) : (
          <div class="table-wrap">
            <table id="returns">
              <caption>{t('vat.returns')}</caption>
              <ColumnHeads columns={[t('vat.period'), t('vat.type'), t('vat.status'), numeric(t('vat.payable'))]} />
              <tbody>
                {returns.map((r) => (
                  <tr>
                    <td>
                      <a href={`${base}/${r.id}`}>
                        {r.from} – {r.to}
                      </a>
                    </td>
                    <td>{t(TYPE_KEY[r.type])}</td>
                    <td>{t(STATUS_KEY[r.status])}</td>
                    <td class="num">{swissAmount(r.payable)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </>,
    );
  }

  router.get('/books/:dataset/vat', async (ctx) => {
    const page = await open(ctx);
    if (page) await listPage(ctx, page, 200);
  });

  router.post('/books/:dataset/vat', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const fields = bodyFields(ctx);
    const from = String(fields.from ?? '');
    const to = String(fields.to ?? '');
    const type = fields.type === 'correction' ? 'correction' : 'original';
    const prepared =
      DATE.test(from) && DATE.test(to)
        ? await page.call('POST', '/reports/vat/returns', { from, to, type })
        : undefined;
    if (prepared?.status !== 201) {
      const refusal = prepared ? (
        <LedgerRefusal answer={prepared} />
      ) : (
        <Notice kind="error" id="refusal">
          {textsOf(ctx)('vat.period')}: yyyy-mm-dd
        </Notice>
      );
      return listPage(ctx, page, 422, refusal);
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}/${(prepared.body as VatReturn).id}`);
  });

  router.get('/books/:dataset/vat/:id', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    await returnPage(ctx, page, 200);
  });

  async function returnPage(ctx: Context, page: CompanyPage, status: number, notice?: unknown) {
    const t = textsOf(ctx);
    const base = ENTRY.path(page.company.dataset);
    const id = String(ctx.params.id);
    const figure = FIGURE.test(String(ctx.query.figure ?? '')) ? String(ctx.query.figure) : undefined;
    const read = ID.test(id) ? `/reports/vat/returns/${id}${figure ? `?figure=${figure}` : ''}` : undefined;
    const props = { title: t('vat.return'), ...page, current: base };
    const r = (await readOr404(ctx, page, props, read, 'No such VAT return.')) as
      | (VatReturn & { figure_lines?: FigureLines })
      | undefined;
    if (!r) return;
    const lines = r.figure_lines;
    await renderPage(
      ctx,
      status,
      { ...props, title: `${t('vat.return')} ${r.from} – ${r.to}` },
      <>
        <p>
          <a href={base}>← {t('vat.back')}</a>
        </p>
        {notice}
        <p id="return-state">
          {t(METHOD_KEY[r.method])} · {t(TYPE_KEY[r.type])} · {t(STATUS_KEY[r.status])}
          {r.settlement_id === null ? '' : ` · ${t('vat.settledBy', { id: r.settlement_id })}`}
        </p>
        <p id="downloads">
          <a class="button secondary" id="download-pdf" href={`${base}/${r.id}/download?format=pdf`}>
            {t('vat.download.pdf')}
          </a>
          <a class="button secondary" id="download-xml" href={`${base}/${r.id}/download?format=xml`}>
            {t('vat.download.xml')}
          </a>
        </p>
        {r.status === 'draft' ? (
          <form method="post" action={`${base}/${r.id}/settle`} id="settle">
            <Csrf token={page.csrf} />
            <button type="submit">
              {t('vat.settle')} ({t('vat.payable')} {swissAmount(r.payable)} {r.currency})
            </button>
          </form>
        ) : null}
        <div class="table-wrap">
          <table id="figures">
            <caption>{t('vat.return')}</caption>
            <ColumnHeads columns={[t('vat.figure'), '', numeric(t('vat.amount'))]} />
            <tbody>
              {Object.entries(r.figures).map(([key, value]) => (
                <tr>
                  <td>
                    <a href={`${base}/${r.id}?figure=${key}#lines`}>{key.replace('_tax', '')}</a>
                  </td>
                  <td>{figureLabel(t, key)}</td>
                  <td class="num">{swissAmount(value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {lines ? (
          <div class="table-wrap">
            <table id="lines">
              <caption>{t('vat.lines', { figure: `${lines.figure} ${figureLabel(t, lines.figure)}` })}</caption>
              <ColumnHeads
                columns={[t('vat.date'), t('vat.document'), numeric(t('vat.base')), numeric(t('vat.tax'))]}
              />
              <tbody>
                {lines.lines.map((l) => (
                  <tr>
                    <td>{l.date}</td>
                    <td>{`${l.kind} ${l.number ?? l.id}`}</td>
                    <td class="num">{swissAmount(l.base)}</td>
                    <td class="num">{swissAmount(l.tax)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colspan={3}>
                    {lines.figure}
                  </th>
                  <td class="num" id="lines-total">
                    {swissAmount(lines.total)}
                  </td>
                </tr>
              </tfoot>
            </table>
          </div>
        ) : null}
      </>,
    );
  }

  // the form (PDF) or the eCH-0217 file (XML) of a return, as the ledger writes them
  router.get('/books/:dataset/vat/:id/download', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const id = String(ctx.params.id);
    const pdf = ctx.query.format === 'pdf';
    const mediaType = pdf ? 'application/pdf' : 'application/xml';
    const answer = ID.test(id)
      ? await page.call('GET', `/reports/vat/returns/${id}`, undefined, { accept: mediaType })
      : undefined;
    if (answer?.status !== 200 || !answer.file) {
      const props = { title: textsOf(ctx)('vat.return'), ...page, current: ENTRY.path(page.company.dataset) };
      return renderErrorPage(
        ctx,
        answer ? 422 : 404,
        props,
        answer ? ledgerError(answer).message : 'No such VAT return.',
      );
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    ctx.set('Content-Disposition', `attachment; filename="vat-return-${id}${pdf ? '.pdf' : '-eCH-0217.xml'}"`);
    ctx.type = mediaType;
    ctx.body = answer.file.data;
  });

  router.post('/books/:dataset/vat/:id/settle', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const id = String(ctx.params.id);
    const settled = ID.test(id) ? await page.call('POST', `/reports/vat/returns/${id}/settle`, {}) : undefined;
    if (settled?.status !== 200) {
      return returnPage(ctx, page, 422, settled ? <LedgerRefusal answer={settled} /> : undefined);
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}/${id}`);
  });
}
