/**
 * Books → Chart of accounts (`/books/{dataset}/accounts`): the accounts with their category and
 * what they may be used for (links), a form to add one and each account on its own page
 * (`/books/{dataset}/accounts/{accno}`) to change its name, category and links. Through the
 * chart's REST contracts as the person (`GET/POST /system/chart/accounts[/{accno}]`): reading
 * needs `system.chart_of_accounts`, writing `system.add_account`; the ledger refuses a change
 * that would alter the meaning of an account's postings.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { roleHas } from '@ledger/shared';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { LedgerRefusal, listOf, readOr404, refusalStatus, refusedForm, seeOther } from './access.tsx';
import { tr } from './language.ts';
import { ColumnHeads, Csrf, Field, Notice, navEntry, type Refused, renderPage, shown } from './ui.tsx';

interface Account {
  accno: string;
  description: string;
  category: Category;
  links: string[];
}

const CATEGORIES = ['A', 'L', 'Q', 'I', 'E'] as const;
type Category = (typeof CATEGORIES)[number];
const LINKS = ['AR', 'AP', 'AR_amount', 'AP_amount', 'AR_tax', 'AP_tax', 'AR_paid', 'AP_paid'] as const;
const ACCNO = /^[0-9A-Za-z][0-9A-Za-z._-]{0,19}$/;
const ENTRY = navEntry('accounts');
const title = () => tr('app.chart.title');
const categoryName = (c: string) =>
  (CATEGORIES as readonly string[]).includes(c) ? tr(`app.chart.category.${c as Category}`) : c;

/** The links ticked in the posted form (`link_{name}` boxes). */
const linksOf = (f: Readonly<Record<string, unknown>>) => LINKS.filter((l) => f[`link_${l}`]);

function AccountFields({ account, refused, isNew }: { account?: Account; refused?: Refused; isNew: boolean }) {
  const category = shown(refused, 'category', account?.category ?? 'E');
  const ticked = (l: string) => (refused ? Boolean(refused.values[`link_${l}`]) : (account?.links ?? []).includes(l));
  return (
    <>
      {isNew ? (
        <Field
          id="c-accno"
          name="accno"
          label={tr('app.chart.accno')}
          value={shown(refused, 'accno', '')}
          required
          refused={refused}
        />
      ) : null}
      <Field
        id="c-description"
        name="description"
        label={tr('app.common.name')}
        value={shown(refused, 'description', account?.description)}
        required
        refused={refused}
      />
      <label for="c-category">{tr('app.chart.categoryLabel')}</label>
      <select id="c-category" name="category">
        {CATEGORIES.map((c) => (
          <option value={c} selected={c === category}>
            {categoryName(c)}
          </option>
        ))}
      </select>
      <fieldset class="links">
        <legend>{tr('app.chart.links')}</legend>
        {LINKS.map((l) => (
          <label for={`c-link-${l}`} class="check">
            <input type="checkbox" id={`c-link-${l}`} name={`link_${l}`} value="1" checked={ticked(l)} />{' '}
            {tr(`app.chart.link.${l}`)}
          </label>
        ))}
      </fieldset>
    </>
  );
}

export function chartPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.chart.why'), ENTRY.allowed);
  const props = (page: CompanyPage) => ({ title: title(), ...page, current: ENTRY.path(page.company.dataset) });

  async function showList(ctx: Context, page: CompanyPage, status: number, top: unknown, refused?: Refused) {
    const base = ENTRY.path(page.company.dataset);
    const accounts = await listOf<Account>(page, '/system/chart/accounts?limit=1000');
    const mayWrite = roleHas(page.company.role, 'system.add_account');
    await renderPage(
      ctx,
      status,
      props(page),
      <>
        {top}
        <div class="table-wrap">
          <table id="accounts">
            <caption>{tr('app.chart.caption', { company: page.company.name })}</caption>
            <ColumnHeads
              columns={[
                tr('app.chart.accno'),
                tr('app.common.name'),
                tr('app.chart.categoryLabel'),
                tr('app.chart.links'),
              ]}
            />
            <tbody>
              {accounts.map((a) => (
                <tr data-account={a.accno}>
                  <td>{mayWrite ? <a href={`${base}/${encodeURIComponent(a.accno)}`}>{a.accno}</a> : a.accno}</td>
                  <td>{a.description}</td>
                  <td>{categoryName(a.category)}</td>
                  <td>{a.links.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {mayWrite ? (
          <section aria-labelledby="new-heading">
            <h2 id="new-heading">{tr('app.chart.new')}</h2>
            <form method="post" action={`${base}/new`} id="new-account">
              <Csrf token={page.csrf} />
              <AccountFields refused={refused} isNew />
              <p>
                <button type="submit">{tr('app.chart.add')}</button>
              </p>
            </form>
          </section>
        ) : null}
      </>,
    );
  }

  async function showAccount(
    ctx: Context,
    page: CompanyPage,
    account: Account,
    status: number,
    top: unknown,
    refused?: Refused,
  ) {
    const base = ENTRY.path(page.company.dataset);
    await renderPage(
      ctx,
      status,
      { ...props(page), title: tr('app.chart.one', { accno: account.accno, name: account.description }) },
      <>
        {top}
        <p>
          <a href={base}>{tr('app.chart.back')}</a>
        </p>
        <form method="post" action={`${base}/${encodeURIComponent(account.accno)}`} id="account">
          <Csrf token={page.csrf} />
          <AccountFields account={account} refused={refused} isNew={false} />
          <p>
            <button type="submit">{tr('app.parties.save')}</button>
          </p>
        </form>
      </>,
    );
  }

  async function accountOf(ctx: Context, page: CompanyPage): Promise<Account | undefined> {
    const accno = String(ctx.params.accno);
    const path = ACCNO.test(accno) ? `/system/chart/accounts?limit=1000` : undefined;
    const all = (await readOr404(ctx, page, props(page), path, tr('app.chart.noSuch'))) as Account[] | undefined;
    if (!all) return undefined;
    const found = all.find((a) => a.accno === accno);
    if (!found) await showList(ctx, page, 404, <Notice kind="error">{tr('app.chart.noSuch')}</Notice>);
    return found;
  }

  router.get(ENTRY.path(':dataset'), async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const notice = ctx.query.notice === 'created' ? tr('app.chart.created') : '';
    await showList(ctx, page, 200, notice ? <Notice kind="ok">{notice}</Notice> : null);
  });

  router.post(`${ENTRY.path(':dataset')}/new`, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const f = bodyFields(ctx);
    const answer = await page.call('POST', '/system/chart/accounts', {
      accno: String(f.accno ?? '').trim(),
      description: String(f.description ?? '').trim(),
      category: String(f.category ?? ''),
      links: linksOf(f),
    });
    if (answer.status !== 201)
      return showList(ctx, page, refusalStatus(answer), <LedgerRefusal answer={answer} />, refusedForm(f, answer));
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=created`);
  });

  router.get(`${ENTRY.path(':dataset')}/:accno`, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = await accountOf(ctx, page);
    if (!account) return;
    const notice = ctx.query.notice === 'saved' ? tr('app.parties.saved') : '';
    await showAccount(ctx, page, account, 200, notice ? <Notice kind="ok">{notice}</Notice> : null);
  });

  router.post(`${ENTRY.path(':dataset')}/:accno`, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = await accountOf(ctx, page);
    if (!account) return;
    const f = bodyFields(ctx);
    const answer = await page.call('POST', `/system/chart/accounts/${encodeURIComponent(account.accno)}`, {
      description: String(f.description ?? '').trim(),
      category: String(f.category ?? ''),
      links: linksOf(f),
    });
    if (answer.status !== 200) {
      const top = <LedgerRefusal answer={answer} />;
      return showAccount(ctx, page, account, refusalStatus(answer), top, refusedForm(f, answer));
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}/${encodeURIComponent(account.accno)}?notice=saved`);
  });
}
