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
import { type MessageKey, ROLES } from '@ledger/shared';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { ledgerError, listOf, refusedForm, seeOther } from './access.tsx';
import { tr } from './language.ts';
import {
  ColumnHeads,
  Csrf,
  Field,
  Notice,
  navEntry,
  type Refused,
  renderPage,
  roleName,
  shown,
  swissAmount,
  when,
} from './ui.tsx';

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

const title = () => tr('app.members.title');
const ENTRY = navEntry('members');

const NOTICES = {
  invited: 'app.members.invited',
  withdrawn: 'app.members.withdrawn',
  changed: 'app.members.changed',
  removed: 'app.members.removed',
} as const satisfies Record<string, MessageKey>;

function RoleSelect({ id, value }: { id: string; value?: string }) {
  return (
    <select id={id} name="role">
      {ROLES.map((r) => (
        <option value={r} selected={r === value}>
          {roleName(r)}
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
  limit === null ? tr('app.common.noLimit') : tr('app.common.limit', { amount: swissAmount(limit) });

/** The form's approval limit: absent when the form has no such field (a non-owner's form), else as parseLimit. */
function formLimit(fields: Record<string, unknown>): number | null | undefined | 'absent' {
  return 'approval_limit' in fields ? parseLimit(fields.approval_limit) : 'absent';
}

/** `invite`: a refused invitation, whose typed values the form shows again with its message at its field. */
async function show(ctx: Context, page: CompanyPage, status: number, top: unknown, invite?: Refused): Promise<void> {
  const rows = await listOf<Member>(page, '/system/members?limit=1000');
  const invitations = await listOf<Invitation>(page, '/system/invitations?limit=1000');
  const base = ENTRY.path(page.company.dataset);
  const owner = page.company.role === 'owner';
  await renderPage(
    ctx,
    status,
    { title: title(), ...page, current: base },
    <>
      {top}
      <p class="hint">{tr('app.members.hint')}</p>
      <h2 id="invite-heading">{tr('app.members.invite')}</h2>
      <form method="post" action={`${base}/invitations`} aria-labelledby="invite-heading">
        <Csrf token={page.csrf} />
        <Field
          type="email"
          id="new-email"
          name="email"
          label={tr('app.common.email')}
          required
          maxlength={320}
          value={shown(invite, 'email', '')}
          refused={invite}
        />
        <label for="new-role">{tr('app.common.role')}</label>
        <RoleSelect id="new-role" value={shown(invite, 'role', 'viewer')} />
        {owner ? (
          <Field
            id="new-limit"
            name="approval_limit"
            label={tr('app.members.limitLabel')}
            decimal
            placeholder={tr('app.members.noLimitPlaceholder')}
            value={shown(invite, 'approval_limit', '')}
            refused={invite}
          />
        ) : (
          <p class="hint" id="limit-by-owners">
            {tr('app.members.limitByOwners')}
          </p>
        )}
        <p>
          <button type="submit">{tr('app.members.send')}</button>
        </p>
      </form>
      <h2>{tr('app.members.openInvitations')}</h2>
      {invitations.length ? (
        <div class="table-wrap">
          <table id="invitations">
            <caption>{tr('app.members.notAccepted')}</caption>
            <ColumnHeads
              columns={[
                tr('app.common.email'),
                tr('app.common.roleAndLimit'),
                tr('app.common.openUntil'),
                tr('app.members.withdraw'),
              ]}
            />
            <tbody>
              {invitations.map((i) => (
                <tr data-invitation={i.email}>
                  <td>{i.email}</td>
                  <td>
                    {roleName(i.role)}, {limitText(i.approval_limit)}
                  </td>
                  <td>{when(i.expires_at)}</td>
                  <td>
                    <form method="post" action={`${base}/invitations/${i.id}/withdraw`} class="inline">
                      <Csrf token={page.csrf} />
                      <button
                        type="submit"
                        class="danger"
                        aria-label={tr('app.members.withdrawLabel', { email: i.email })}
                      >
                        {tr('app.members.withdraw')}
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-invitations">{tr('app.members.noInvitations')}</p>
      )}
      <h2>{tr('app.members.members')}</h2>
      <div class="table-wrap">
        <table id="members">
          <caption>{tr('app.members.caption', { company: page.company.name })}</caption>
          <ColumnHeads columns={[tr('app.members.person'), tr('app.common.roleAndLimit'), tr('app.members.remove')]} />
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
                      {roleName(m.role)}, {limitText(m.approval_limit)} <small>{tr('app.members.yours')}</small>
                    </p>
                  ) : (
                    <form method="post" action={`${base}/${m.user_id}`}>
                      <Csrf token={page.csrf} />
                      <label for={`role-${m.user_id}`}>{tr('app.members.roleOf', { email: m.email })}</label>
                      <RoleSelect id={`role-${m.user_id}`} value={m.role} />
                      {owner ? (
                        <>
                          <label for={`limit-${m.user_id}`}>{tr('app.members.limitOf', { email: m.email })}</label>
                          <input
                            type="text"
                            id={`limit-${m.user_id}`}
                            name="approval_limit"
                            inputmode="decimal"
                            placeholder={tr('app.members.noLimitPlaceholder')}
                            value={m.approval_limit === null ? '' : swissAmount(m.approval_limit)}
                          />
                        </>
                      ) : (
                        <p data-limit>{limitText(m.approval_limit)}</p>
                      )}
                      <p>
                        <button
                          type="submit"
                          class="secondary"
                          aria-label={tr('app.members.saveLabel', { email: m.email })}
                        >
                          {tr('app.common.save')}
                        </button>
                      </p>
                    </form>
                  )}
                </td>
                <td>
                  <form method="post" action={`${base}/${m.user_id}/remove`} class="inline">
                    <Csrf token={page.csrf} />
                    <button type="submit" class="danger" aria-label={tr('app.members.removeLabel', { email: m.email })}>
                      {tr('app.members.remove')}
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
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.members.why'), ENTRY.allowed);
  const refused = (ctx: Context, page: CompanyPage, status: number, message: string, invite?: Refused) =>
    show(
      ctx,
      page,
      status,
      <Notice kind="error" id="refusal">
        {message}
      </Notice>,
      invite,
    );
  const userIdOf = (ctx: Context) =>
    /^[1-9]\d{0,15}$/.test(String(ctx.params.userId)) ? String(ctx.params.userId) : undefined;

  router.get('/management/:dataset/members', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const key = NOTICES[String(ctx.query.notice ?? '') as keyof typeof NOTICES];
    await show(ctx, page, 200, key ? <Notice kind="ok">{tr(key)}</Notice> : null);
  });

  router.post('/management/:dataset/members/invitations', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const f = bodyFields(ctx);
    const limit = formLimit(f);
    if (limit === undefined) {
      const message = tr('app.members.badLimit');
      return refused(ctx, page, 400, message, { values: f, message, field: 'approval_limit' });
    }
    // an empty limit is left out: no limit from an owner, 0 from an admin (the ledger decides)
    const answer = await page.call('POST', '/system/invitations', {
      email: String(f.email ?? '').trim(),
      role: String(f.role ?? ''),
      ...(limit === 'absent' || limit === null ? {} : { approval_limit: limit }),
    });
    if (answer.status !== 201) {
      const status = answer.status >= 500 ? 502 : answer.status;
      return refused(ctx, page, status, ledgerError(answer).message, refusedForm(f, answer));
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=invited`);
  });

  router.post('/management/:dataset/members/invitations/:id/withdraw', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const id = /^[1-9]\d{0,15}$/.test(String(ctx.params.id)) ? String(ctx.params.id) : undefined;
    if (!id) return refused(ctx, page, 404, tr('app.members.noSuchInvitation'));
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
    if (!userId) return refused(ctx, page, 404, tr('app.members.noSuchMember'));
    if (limit === undefined) return refused(ctx, page, 400, tr('app.members.badLimit'));
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
    if (!userId) return refused(ctx, page, 404, tr('app.members.noSuchMember'));
    const answer = await page.call('DELETE', `/system/members/${userId}`);
    if (answer.status !== 204)
      return refused(ctx, page, answer.status >= 500 ? 502 : answer.status, ledgerError(answer).message);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=removed`);
  });
}
