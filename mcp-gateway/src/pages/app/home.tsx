/**
 * `/`: the companies the signed-in person belongs to, with their role, each linking into its pages,
 * and the open invitations to the person's address (accepted on `/invitations`).
 */
import type Router from '@koa/router';
import { isRole } from '@ledger/shared';
import type { GatewayDeps } from '../../deps.ts';
import type { access as accessOf } from './access.tsx';
import { tr } from './language.ts';
import { NAV, Notice, renderPage, roleName } from './ui.tsx';

export function homePage(router: Router, deps: GatewayDeps, access: ReturnType<typeof accessOf>): void {
  router.get('/', async (ctx) => {
    const who = await access.signedIn(ctx);
    if (!who) return;
    const memberships = await deps.ledger.memberships(who.person.id);
    const { invitations } = await deps.ledger.invitations(who.person.id);
    const invited = invitations.length ? (
      <Notice kind="ok" id="open-invitations">
        {invitations.length === 1
          ? tr('app.home.invitedOne', { company: invitations[0]!.company.name })
          : tr('app.home.invitedMany', { count: invitations.length })}{' '}
        <a href="/invitations">{tr('app.home.seeInvitations')}</a>
      </Notice>
    ) : null;
    await renderPage(
      ctx,
      200,
      { title: tr('app.home.title'), ...who, current: '/' },
      <>
        {invited}
        {memberships.length ? (
          <ul class="cards" id="companies">
            {memberships.map((m) => {
              const role = isRole(m.role) ? m.role : undefined;
              const pages = role ? NAV.flatMap((g) => g.entries.filter((e) => e.allowed(role))) : [];
              return (
                <li data-company={m.dataset}>
                  <h2>{m.name}</h2>
                  <p>
                    {tr('app.home.yourRole')} <strong data-role>{role ? roleName(role) : m.role}</strong> ·{' '}
                    {tr('app.home.dataset')} <code>{m.dataset}</code>
                  </p>
                  <ul>
                    {pages.map((e) => (
                      <li>
                        <a href={e.path(m.dataset)}>{tr(e.label)}</a>
                      </li>
                    ))}
                  </ul>
                </li>
              );
            })}
          </ul>
        ) : (
          <p id="no-companies">{tr('app.home.none')}</p>
        )}
      </>,
    );
  });
}
