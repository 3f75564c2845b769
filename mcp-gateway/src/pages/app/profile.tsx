/**
 * My Profile → Language (`/account/profile`): the language the app speaks to the signed-in
 * person, kept by the gateway (`person_settings`, language.ts). "The browser's language" forgets
 * the choice, so the browser's `Accept-Language` counts again. The page answers in the new
 * language at once (the redirect reads the choice anew).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { CATALOGUES, isLanguage, LANGUAGES } from '@ledger/shared';
import type { GatewayDeps } from '../../deps.ts';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, PersonPage } from './access.tsx';
import { seeOther } from './access.tsx';
import { chooseLanguage, chosenLanguage, tr } from './language.ts';
import { Csrf, Notice, renderPage } from './ui.tsx';

const PATH = '/account/profile';

export function profilePages(router: Router, deps: GatewayDeps, access: ReturnType<typeof accessOf>): void {
  async function show(ctx: Context, who: PersonPage, status: number, top: unknown) {
    const chosen = await chosenLanguage(deps.db, who.person.id);
    await renderPage(
      ctx,
      status,
      { title: tr('app.profile.title'), ...who, current: PATH },
      <>
        {top}
        <p class="hint">{tr('app.profile.hint')}</p>
        <form method="post" action={PATH} id="profile">
          <Csrf token={who.csrf} />
          <label for="language">{tr('app.profile.language')}</label>
          <select id="language" name="language">
            <option value="" selected={chosen === undefined}>
              {tr('app.profile.browser')}
            </option>
            {LANGUAGES.map((l) => (
              // each language named in itself, so a person finds theirs whatever the page speaks
              <option value={l} lang={l} selected={chosen === l}>
                {CATALOGUES[l]['common.language']}
              </option>
            ))}
          </select>
          <p>
            <button type="submit">{tr('app.profile.save')}</button>
          </p>
        </form>
      </>,
    );
  }

  router.get(PATH, async (ctx) => {
    const who = await access.signedIn(ctx);
    if (!who) return;
    await show(
      ctx,
      who,
      200,
      ctx.query.notice === 'saved' ? <Notice kind="ok">{tr('app.profile.saved')}</Notice> : null,
    );
  });

  router.post(PATH, async (ctx) => {
    const who = await access.signedIn(ctx);
    if (!who) return;
    const asked = String(bodyFields(ctx).language ?? '');
    if (asked !== '' && !isLanguage(asked)) {
      return show(
        ctx,
        who,
        400,
        <Notice kind="error" id="refusal">
          {tr('app.profile.unknown')}
        </Notice>,
      );
    }
    await chooseLanguage(deps.db, who.person.id, asked === '' ? undefined : asked, deps.now());
    seeOther(ctx, `${PATH}?notice=saved`);
  });
}
