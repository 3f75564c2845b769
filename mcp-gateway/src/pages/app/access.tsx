/**
 * Who is looking at an app page, and what they may do there: the signed-in person (else the
 * sign-in page, coming back here), the CSRF check of every form post, and the person's role in
 * the company of the path (else 403 with a page that says why). The ledger is called as the
 * person with an app credential (ledgerClient.callAsPerson), so the ledger applies the role's
 * permissions and approval limit itself; the checks here only decide what to show. Also how
 * every page reads the ledger's answers: a list (`listOf`), one record or a 404 page
 * (`readOr404`), a refusal as the `#refusal` notice (`LedgerRefusal`, `refusalStatus`).
 */
import type { Child } from 'hono/jsx';
import type { Context } from 'koa';
import { isDatasetName, isRole } from '@ledger/shared';
import type { GatewayDeps } from '../../deps.ts';
import { bodyFields } from '../../http/bodyParser.ts';
import type { LedgerAnswer, LedgerMethod } from '../../ledgerClient.ts';
import { signInUrl } from '../signin.tsx';
import { tr } from './language.ts';
import {
  type ChartAccount,
  Notice,
  type Refused,
  type PageProps,
  renderErrorPage,
  renderPage,
  roleName,
  type CompanyContext,
  type Person,
} from './ui.tsx';

export interface PersonPage {
  person: Person;
  csrf: string;
}

export interface CompanyPage extends PersonPage {
  company: CompanyContext;
  /** calls the ledger's REST API (below /client/{dataset}) as the person; `headers` e.g. an Accept for a report file */
  call(
    method: LedgerMethod,
    path: string,
    body?: unknown,
    headers?: Readonly<Record<string, string>>,
  ): Promise<LedgerAnswer>;
}

/** The message of a ledger error answer (`{ error: { code, message, field? } }`). */
export function ledgerError(answer: LedgerAnswer): { code: string; message: string; field?: string } {
  const e = (answer.body as { error?: { code?: unknown; message?: unknown; field?: unknown } } | undefined)?.error;
  return {
    ...(typeof e?.field === 'string' ? { field: e.field } : {}),
    code: typeof e?.code === 'string' ? e.code : 'error',
    message: typeof e?.message === 'string' ? e.message : tr('app.access.ledgerAnswered', { status: answer.status }),
  };
}

/** The ledger's refusal as the text of a `#refusal` notice: its code, then its message. */
export function refusalText(answer: LedgerAnswer): Child {
  const e = ledgerError(answer);
  return (
    <>
      <code>{e.code}</code>: {e.message}
    </>
  );
}

/** A form the ledger refused: the typed `values` to show again and its message at the field it names. */
export function refusedForm(values: Readonly<Record<string, unknown>>, answer: LedgerAnswer): Refused {
  const e = ledgerError(answer);
  return { values, message: e.message, ...(e.field ? { field: e.field } : {}) };
}

/** The chart's accounts for the pickers (none when the person may not read the chart). */
export async function chartAccounts(page: CompanyPage): Promise<ChartAccount[]> {
  return listOf<ChartAccount>(page, '/system/chart/accounts?limit=1000');
}

/** The ledger's refusal as the page's `#refusal` notice. */
export const LedgerRefusal = ({ answer }: { answer: LedgerAnswer }) => (
  <Notice kind="error" id="refusal">
    {refusalText(answer)}
  </Notice>
);

/** The status of a page showing the ledger's refusal: the ledger's own, 502 when the ledger failed. */
export const refusalStatus = (answer: LedgerAnswer) => (answer.status >= 500 ? 502 : answer.status);

/** The rows of a ledger list (`GET path`); none when the ledger refused it. */
export async function listOf<Row>(page: CompanyPage, path: string): Promise<Row[]> {
  const answer = await page.call('GET', path);
  return answer.status === 200 ? (answer.body as Row[]) : [];
}

/**
 * The body of the ledger's answer to `GET path` (undefined `path`: the page's id was malformed), or undefined
 * after a 404 page (`props`) saying the ledger's message, else `missing`.
 */
export async function readOr404(
  ctx: Context,
  page: CompanyPage,
  props: PageProps,
  path: string | undefined,
  missing: string,
): Promise<unknown> {
  const answer = path === undefined ? undefined : await page.call('GET', path);
  if (answer?.status === 200) return answer.body;
  await renderErrorPage(ctx, 404, props, answer ? ledgerError(answer).message : missing);
  return undefined;
}

export function access(deps: GatewayDeps) {
  const { sessions, ledger } = deps;

  async function signedIn(ctx: Context): Promise<PersonPage | undefined> {
    const user = await sessions.user(ctx);
    if (!user) {
      seeOther(ctx, signInUrl(ctx.method === 'GET' ? ctx.url : '/'));
      return undefined;
    }
    const csrf = sessions.csrfToken(ctx);
    if (ctx.method === 'POST' && !sessions.checkCsrf(ctx, bodyFields(ctx).csrf)) {
      await renderPage(
        ctx,
        403,
        { title: tr('app.access.expiredTitle'), person: user, csrf, current: ctx.path },
        <Notice kind="error">{tr('app.access.expired')}</Notice>,
      );
      return undefined;
    }
    return { person: user, csrf };
  }

  /**
   * The person and their role in the company of the path when `allowed(role)`; else an answer
   * (sign-in, 404 for an unknown company, 403 naming the page and why) has been sent.
   */
  async function companyPage(
    ctx: Context,
    page: string,
    why: string,
    allowed: (role: CompanyContext['role']) => boolean,
  ): Promise<CompanyPage | undefined> {
    const who = await signedIn(ctx);
    if (!who) return undefined;
    const dataset = String(ctx.params.dataset);
    const member = isDatasetName(dataset) ? await ledger.member(dataset, who.person.id) : undefined;
    if (!member?.user_active || !member.role || !isRole(member.role)) {
      await renderPage(
        ctx,
        404,
        { title: tr('app.access.notFoundTitle'), ...who, current: ctx.path },
        <Notice kind="error">{tr('app.access.notMember', { dataset })}</Notice>,
      );
      return undefined;
    }
    const company: CompanyContext = { dataset, name: member.company.name, role: member.role };
    if (!allowed(member.role)) {
      await renderPage(
        ctx,
        403,
        { title: tr('app.access.forbiddenTitle'), ...who, company, current: ctx.path },
        <Notice kind="error" id="forbidden">
          <p>{tr('app.access.forbidden', { company: company.name, role: roleName(member.role), page })}</p>
          <p>{why}</p>
        </Notice>,
      );
      return undefined;
    }
    return {
      ...who,
      company,
      call: (method, path, body, headers) =>
        ledger.callAsPerson({ userId: who.person.id, dataset }, method, path, body, headers),
    };
  }

  return { signedIn, companyPage };
}

/** Answers 303 to `path` (after a form post: the page is loaded again with GET). */
export function seeOther(ctx: Context, path: string): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 303;
  ctx.redirect(path);
}
