/**
 * System → Management → Members (`/management/{dataset}/members`), owners and admins: invite a
 * person by e-mail with a role (and, owners only, an approval limit), see and withdraw the open
 * invitations, change roles and (owners) limits, remove. The ledger keeps the rules (only owners
 * change limits or grant or take the owner role; nobody changes their own; the last owner stays);
 * the page only leaves out the fields a person may not change, and shows a refusal's message
 * above the form.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { ROLES } from '@ledger/shared';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { ledgerError, listOf, seeOther } from './access.tsx';
import { ColumnHeads, Csrf, NAV, Notice, renderPage, swissAmount, when } from './ui.tsx';

interface Invitation {
  id: number;
  email: string;
  role: string;
  approval_limit: number | null;
  expires_at: string;
}

interface Member {
  user_id: number;
  name: string;
  email: string;
  role: string;
  approval_limit: number | null;
}

const TITLE = 'System → Management → Members';
const ENTRY = NAV.flatMap((g) => g.entries).find((e) => e.label === 'Members')!;

const NOTICES: Record<string, string> = {
  invited: 'The invitation is sent; the person becomes a member on accepting it.',
  withdrawn: 'The invitation is withdrawn; its link no longer works.',
  changed: 'The member is changed.',
  removed: 'The member is removed; their API keys and AI connections stop working.',
};

function RoleSelect({ id, value }: { id: string; value?: string }) {
  return (
    <select id={id} name="role">
      {ROLES.map((r) => (
        <option value={r} selected={r === value}>
          {r}
        </option>
      ))}
    </select>
  );
}

/** "1'000.50", "1000", "" (no limit) → the API's number or null; undefined when not an amount. */
export function parseLimit(value: unknown): number | null | undefined {
  const text = String(value ?? '').replace(/['’\s]/g, '');
  if (text === '') return null;
  return /^\d{1,15}(\.\d{1,2})?$/.test(text) ? Number(text) : undefined;
}

const limitText = (limit: number | null) =>
  limit === null ? 'no approval limit' : `approval limit ${swissAmount(limit)}`;

/** The form's approval limit: absent when the form has no such field (a non-owner's form), else as parseLimit. */
function formLimit(fields: Record<string, unknown>): number | null | undefined | 'absent' {
  return 'approval_limit' in fields ? parseLimit(fields.approval_limit) : 'absent';
}

async function show(ctx: Context, page: CompanyPage, status: number, top: unknown): Promise<void> {
  const rows = await listOf<Member>(page, '/system/members?limit=1000');
  const invitations = await listOf<Invitation>(page, '/system/invitations?limit=1000');
  const base = ENTRY.path(page.company.dataset);
  const owner = page.company.role === 'owner';
  await renderPage(
    ctx,
    status,
    { title: TITLE, ...page, current: base },
    <>
      {top}
      <p class="hint">
        Roles: owner and admin manage the company; accountant approves and posts; clerk records drafts; viewer reads.
        The approval limit is the highest document total (in the company's currency) a member may approve and post;
        empty = no limit. Only owners change approval limits, and nobody changes their own role or limit. A person
        becomes a member by accepting the invitation e-mailed to them, after signing in with that address.
      </p>
      <h2 id="invite-heading">Invite a person</h2>
      <form method="post" action={`${base}/invitations`} aria-labelledby="invite-heading">
        <Csrf token={page.csrf} />
        <label for="new-email">E-mail</label>
        <input type="email" id="new-email" name="email" required maxlength={320} autocomplete="off" />
        <label for="new-role">Role</label>
        <RoleSelect id="new-role" value="viewer" />
        {owner ? (
          <>
            <label for="new-limit">Approval limit</label>
            <input type="text" id="new-limit" name="approval_limit" inputmode="decimal" placeholder="no limit" />
          </>
        ) : (
          <p class="hint" id="limit-by-owners">
            Only owners set approval limits: the invited person approves nothing until an owner sets one.
          </p>
        )}
        <p>
          <button type="submit">Send invitation</button>
        </p>
      </form>
      <h2>Open invitations</h2>
      {invitations.length ? (
        <div class="table-wrap">
          <table id="invitations">
            <caption>Invitations not yet accepted</caption>
            <ColumnHeads columns={['E-mail', 'Role and approval limit', 'Open until', 'Withdraw']} />
            <tbody>
              {invitations.map((i) => (
                <tr data-invitation={i.email}>
                  <td>{i.email}</td>
                  <td>
                    {i.role}, {limitText(i.approval_limit)}
                  </td>
                  <td>{when(i.expires_at)}</td>
                  <td>
                    <form method="post" action={`${base}/invitations/${i.id}/withdraw`} class="inline">
                      <Csrf token={page.csrf} />
                      <button type="submit" class="danger" aria-label={`Withdraw the invitation to ${i.email}`}>
                        Withdraw
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-invitations">No open invitations.</p>
      )}
      <h2>Members</h2>
      <div class="table-wrap">
        <table id="members">
          <caption>Members of {page.company.name}</caption>
          <ColumnHeads columns={['Person', 'Role and approval limit', 'Remove']} />
          <tbody>
            {rows.map((m) => (
              <tr data-member={m.email}>
                <td>
                  {m.name}
                  <br />
                  <small>{m.email}</small>
                </td>
                <td>
                  {m.user_id === page.person.id ? (
                    <p data-own>
                      {m.role}, {limitText(m.approval_limit)} <small>(yours: another owner changes it)</small>
                    </p>
                  ) : (
                    <form method="post" action={`${base}/${m.user_id}`}>
                      <Csrf token={page.csrf} />
                      <label for={`role-${m.user_id}`}>Role of {m.email}</label>
                      <RoleSelect id={`role-${m.user_id}`} value={m.role} />
                      {owner ? (
                        <>
                          <label for={`limit-${m.user_id}`}>Approval limit of {m.email}</label>
                          <input
                            type="text"
                            id={`limit-${m.user_id}`}
                            name="approval_limit"
                            inputmode="decimal"
                            placeholder="no limit"
                            value={m.approval_limit === null ? '' : swissAmount(m.approval_limit)}
                          />
                        </>
                      ) : (
                        <p data-limit>{limitText(m.approval_limit)}</p>
                      )}
                      <p>
                        <button type="submit" class="secondary" aria-label={`Save ${m.email}`}>
                          Save
                        </button>
                      </p>
                    </form>
                  )}
                </td>
                <td>
                  <form method="post" action={`${base}/${m.user_id}/remove`} class="inline">
                    <Csrf token={page.csrf} />
                    <button type="submit" class="danger" aria-label={`Remove ${m.email}`}>
                      Remove
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>,
  );
}

export function membersPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, TITLE, 'Owners and admins manage the members.', ENTRY.allowed);
  const refused = (ctx: Context, page: CompanyPage, status: number, message: string) =>
    show(
      ctx,
      page,
      status,
      <Notice kind="error" id="refusal">
        {message}
      </Notice>,
    );
  const userIdOf = (ctx: Context) =>
    /^[1-9]\d{0,15}$/.test(String(ctx.params.userId)) ? String(ctx.params.userId) : undefined;

  router.get('/management/:dataset/members', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const text = NOTICES[String(ctx.query.notice ?? '')];
    await show(ctx, page, 200, text ? <Notice kind="ok">{text}</Notice> : null);
  });

  const badLimit = "The approval limit must be an amount such as 1'000.00, or empty for no limit.";

  router.post('/management/:dataset/members/invitations', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const f = bodyFields(ctx);
    const limit = formLimit(f);
    if (limit === undefined) return refused(ctx, page, 400, badLimit);
    // an empty limit is left out: no limit from an owner, 0 from an admin (the ledger decides)
    const answer = await page.call('POST', '/system/invitations', {
      email: String(f.email ?? '').trim(),
      role: String(f.role ?? ''),
      ...(limit === 'absent' || limit === null ? {} : { approval_limit: limit }),
    });
    if (answer.status !== 201)
      return refused(ctx, page, answer.status >= 500 ? 502 : answer.status, ledgerError(answer).message);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=invited`);
  });

  router.post('/management/:dataset/members/invitations/:id/withdraw', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const id = /^[1-9]\d{0,15}$/.test(String(ctx.params.id)) ? String(ctx.params.id) : undefined;
    if (!id) return refused(ctx, page, 404, 'No such invitation.');
    const answer = await page.call('DELETE', `/system/invitations/${id}`);
    if (answer.status !== 204)
      return refused(ctx, page, answer.status >= 500 ? 502 : answer.status, ledgerError(answer).message);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=withdrawn`);
  });

  router.post('/management/:dataset/members/:userId', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const userId = userIdOf(ctx);
    const f = bodyFields(ctx);
    const limit = formLimit(f);
    if (!userId) return refused(ctx, page, 404, 'No such member.');
    if (limit === undefined) return refused(ctx, page, 400, badLimit);
    const answer = await page.call('POST', `/system/members/${userId}`, {
      role: String(f.role ?? ''),
      ...(limit === 'absent' ? {} : { approval_limit: limit }),
    });
    if (answer.status !== 200)
      return refused(ctx, page, answer.status >= 500 ? 502 : answer.status, ledgerError(answer).message);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=changed`);
  });

  router.post('/management/:dataset/members/:userId/remove', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const userId = userIdOf(ctx);
    if (!userId) return refused(ctx, page, 404, 'No such member.');
    const answer = await page.call('DELETE', `/system/members/${userId}`);
    if (answer.status !== 204)
      return refused(ctx, page, answer.status >= 500 ? 502 : answer.status, ledgerError(answer).message);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=removed`);
  });
}
