/**
 * Books → Bank (`/books/{dataset}/bank`): the company's bank accounts (`GET /bank/accounts`),
 * each leading to its own page (bankAccount.tsx) where statements are imported and their lines
 * booked. New bank accounts are added on the company page (owners and admins).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { formatIban } from '@ledger/shared';
import type { access as accessOf } from './access.tsx';
import { listOf } from './access.tsx';
import { tr } from './language.ts';
import { ColumnHeads, navEntry, renderPage } from './ui.tsx';

interface BankAccountRow {
  id: number;
  name: string;
  iban: string;
  currency: string;
  account: string;
}

const ENTRY = navEntry('bank');

export function bankPages(router: Router, access: ReturnType<typeof accessOf>): void {
  router.get(ENTRY.path(':dataset'), async (ctx: Context) => {
    const title = tr('app.bank.title');
    const page = await access.companyPage(ctx, title, tr('app.bank.why'), ENTRY.allowed);
    if (!page) return;
    const base = ENTRY.path(page.company.dataset);
    const rows = await listOf<BankAccountRow>(page, '/bank/accounts?limit=1000');
    await renderPage(
      ctx,
      200,
      { title, ...page, current: base },
      <>
        <p class="hint">{tr('app.bank.hint')}</p>
        {rows.length ? (
          <div class="table-wrap">
            <table id="bank-accounts">
              <caption>{tr('app.bank.caption', { company: page.company.name })}</caption>
              <ColumnHeads
                columns={[tr('app.common.name'), 'IBAN', tr('app.common.currency'), tr('app.common.account')]}
              />
              <tbody>
                {rows.map((b) => (
                  <tr data-bank={b.id}>
                    <td>
                      <a href={`${base}/${b.id}`}>{b.name}</a>
                    </td>
                    <td>
                      <code>{formatIban(b.iban)}</code>
                    </td>
                    <td>{b.currency}</td>
                    <td>{b.account}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p id="no-bank-accounts">{tr('app.bank.none')}</p>
        )}
      </>,
    );
  });
}
