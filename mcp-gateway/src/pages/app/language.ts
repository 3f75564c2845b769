/**
 * The language a page speaks: the person's own choice (their profile, `person_settings`), else
 * the first of ours their browser asks for (`Accept-Language`), else German. It is resolved once
 * per request, before the page's route runs, and held for the request like its id
 * (requestContext.ts): every text of a page is read with `tr(key)` in that language without
 * passing the language through every component. The texts are the shared catalogue's `app.*`
 * keys (shared/src/i18n/messages).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Middleware } from 'koa';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  type Language,
  languageFromAcceptLanguage,
  type MessageKey,
  translate,
} from '@ledger/shared';
import type { Db } from '../../db/knex.ts';
import type { Sessions } from '../../oauth/session.ts';

const scope = new AsyncLocalStorage<Language>();

/** The language of the page being rendered (German outside a request, e.g. in a unit test). */
export function pageLanguage(): Language {
  return scope.getStore() ?? DEFAULT_LANGUAGE;
}

/** The text of `key` in the page's language, `{name}` placeholders filled from `values`. */
export function tr(key: MessageKey, values?: Readonly<Record<string, string | number>>): string {
  return translate(pageLanguage(), key, values);
}

/** The language the person chose in their profile, or undefined (then the browser's counts). */
export async function chosenLanguage(db: Db, userId: number): Promise<Language | undefined> {
  const row = await db('person_settings').where({ user_id: userId }).first();
  return row && isLanguage(row.language) ? row.language : undefined;
}

/** Keeps the person's choice; `undefined` forgets it (the browser's language counts again). */
export async function chooseLanguage(db: Db, userId: number, language: Language | undefined, now: number) {
  if (language === undefined) {
    await db('person_settings').where({ user_id: userId }).delete();
    return;
  }
  await db('person_settings')
    .insert({ user_id: userId, language, updated_at: now })
    .onConflict('user_id')
    .merge(['language', 'updated_at']);
}

/** Runs the rest of the request in the visitor's language (the routers of the pages use it). */
export function inPageLanguage(deps: { db: Db; sessions: Sessions }): Middleware {
  return async (ctx, next) => {
    const user = await deps.sessions.user(ctx);
    const chosen = user ? await chosenLanguage(deps.db, user.id) : undefined;
    const language = chosen ?? languageFromAcceptLanguage(ctx.get('Accept-Language'));
    return scope.run(language, next);
  };
}
