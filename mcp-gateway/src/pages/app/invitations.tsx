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
import { ColumnHeads, Csrf, Notice, renderPage, swissAmount, when } from './ui.tsx';

const PATH = '/invitations';
const TITLE = 'Invitations';

type Invitation = PersonInvitations['invitations'][number];

function InvitationRows({ rows, linked, csrf }: { rows: Invitation[]; linked: number | null; csrf: string }) {
  return (
    <div class="table-wrap">
      <table id="invitations">
        <caption>Open invitations to your address</caption>
        <ColumnHeads columns={['Company', 'Role and approval limit', 'Open until', 'Accept']} />
        <tbody>
          {rows.map((i) => (
            <tr data-invitation={i.company.dataset} class={i.id === linked ? 'linked' : undefined}>
              <td>
                {i.company.name}
                {i.id === linked ? (
                  <>
                    <br />
                    <small>the invitation of your link</small>
                  </>
                ) : null}
              </td>
              <td>
                {i.role}
                {i.approval_limit === null
                  ? ', no approval limit'
                  : `, approval limit ${swissAmount(i.approval_limit)}`}
              </td>
              <td>{when(i.expires_at)}</td>
              <td>
                <form method="post" action={`${PATH}/${i.id}/accept`} class="inline">
                  <Csrf token={csrf} />
                  <button type="submit" aria-label={`Accept the invitation of ${i.company.name}`}>
                    Accept
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
    { title: TITLE, ...who, current: PATH },
    <>
      {top}
      {token !== undefined && linked === null ? (
        <Notice kind="warn" id="link-not-open">
          The invitation of this link is not open for {who.person.email}: it was sent to another address, or it was
          withdrawn, accepted or has expired. Sign in with the address the invitation was sent to, or ask the company
          for a new one.
        </Notice>
      ) : null}
      {invitations.length ? (
        <InvitationRows rows={invitations} linked={linked} csrf={who.csrf} />
      ) : (
        <p id="no-invitations">There is no open invitation to {who.person.email}.</p>
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
          You are now a member. <a href="/">Your companies</a>
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
    const message =
      answer === 'member'
        ? 'You are already a member of this company.'
        : 'This invitation is not open for your address (withdrawn, accepted, expired, or sent to another address).';
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
