/**
 * `/invitations`: the signed-in person's open invitations to become a member of a company, and
 * accepting one. The link in an invitation e-mail opens this page (`?token=`); the ledger says
 * which invitation it names, but only among those addressed to the signed-in person's account,
 * so a link opened by anyone else shows nothing of it. Accepting asks the ledger, which makes
 * the membership with the invited role and limit (docs/app.md).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { GatewayDeps } from '../../deps.ts';
import type { PersonInvitations } from '../../ledgerClient.ts';
import type { access as accessOf, PersonPage } from './access.tsx';
import { seeOther } from './access.tsx';
import { tr } from './language.ts';
import { ColumnHeads, Csrf, Notice, renderPage, roleName, swissAmount, when } from './ui.tsx';

const PATH = '/invitations';

type Invitation = PersonInvitations['invitations'][number];

function InvitationRows({ rows, linked, csrf }: { rows: Invitation[]; linked: number | null; csrf: string }) {
  return (
    <div class="table-wrap">
      <table id="invitations">
        <caption>{tr('app.invitations.caption')}</caption>
        <ColumnHeads
          columns={[
            tr('app.invitations.company'),
            tr('app.common.roleAndLimit'),
            tr('app.common.openUntil'),
            tr('app.invitations.accept'),
          ]}
        />
        <tbody>
          {rows.map((i) => (
            <tr data-invitation={i.company.dataset} class={i.id === linked ? 'linked' : undefined}>
              <td>
                {i.company.name}
                {i.id === linked ? (
                  <>
                    <br />
                    <small>{tr('app.invitations.ofLink')}</small>
                  </>
                ) : null}
              </td>
              <td>
                {roleName(i.role)},{' '}
                {i.approval_limit === null
                  ? tr('app.common.noLimit')
                  : tr('app.common.limit', { amount: swissAmount(i.approval_limit) })}
              </td>
              <td>{when(i.expires_at)}</td>
              <td>
                <form method="post" action={`${PATH}/${i.id}/accept`} class="inline">
                  <Csrf token={csrf} />
                  <button type="submit" aria-label={tr('app.invitations.acceptLabel', { company: i.company.name })}>
                    {tr('app.invitations.accept')}
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

async function show(ctx: Context, deps: GatewayDeps, who: PersonPage, status: number, top: unknown): Promise<void> {
  const token = typeof ctx.query.token === 'string' ? ctx.query.token : undefined;
  const { invitations, linked } = await deps.ledger.invitations(who.person.id, token);
  await renderPage(
    ctx,
    status,
    { title: tr('app.invitations.title'), ...who, current: PATH },
    <>
      {top}
      {token !== undefined && linked === null ? (
        <Notice kind="warn" id="link-not-open">
          {tr('app.invitations.linkNotOpen', { email: who.person.email })}
        </Notice>
      ) : null}
      {invitations.length ? (
        <InvitationRows rows={invitations} linked={linked} csrf={who.csrf} />
      ) : (
        <p id="no-invitations">{tr('app.invitations.none', { email: who.person.email })}</p>
      )}
    </>,
  );
}

export function invitationsPages(router: Router, deps: GatewayDeps, access: ReturnType<typeof accessOf>): void {
  router.get(PATH, async (ctx) => {
    const who = await access.signedIn(ctx);
    if (!who) return;
    const joined = typeof ctx.query.joined === 'string' ? ctx.query.joined : undefined;
    await show(
      ctx,
      deps,
      who,
      200,
      joined ? (
        <Notice kind="ok" id="joined">
          {tr('app.invitations.joined')} <a href="/">{tr('app.home.title')}</a>
        </Notice>
      ) : null,
    );
  });

  router.post(`${PATH}/:id/accept`, async (ctx) => {
    const who = await access.signedIn(ctx);
    if (!who) return;
    const id = /^[1-9]\d{0,15}$/.test(String(ctx.params.id)) ? Number(ctx.params.id) : undefined;
    const answer = id === undefined ? 'gone' : await deps.ledger.acceptInvitation(who.person.id, id);
    if (typeof answer === 'object') return seeOther(ctx, `${PATH}?joined=${encodeURIComponent(answer.dataset)}`);
    const message = answer === 'member' ? tr('app.invitations.already') : tr('app.invitations.gone');
    await show(
      ctx,
      deps,
      who,
      answer === 'member' ? 409 : 404,
      <Notice kind="error" id="refusal">
        {message}
      </Notice>,
    );
  });
}
