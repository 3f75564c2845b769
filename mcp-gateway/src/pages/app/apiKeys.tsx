/**
 * System → Management → API Keys (`/management/{dataset}/api-keys`): create a key with a label
 * (its secret is shown once, in the answer to the form post, never again), list the company's
 * keys, delete one (refused by the ledger from the next request on).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { ledgerError, listOf, refusedForm, seeOther } from './access.tsx';
import { bodyFields } from '../../http/bodyParser.ts';
import { tr } from './language.ts';
import { ColumnHeads, Csrf, Field, Notice, navEntry, type Refused, renderPage, shown, when } from './ui.tsx';

interface ApiKeyRow {
  id: number;
  label: string;
  prefix: string;
  user: string;
  created_at: string;
  last_used_at: string | null;
}

interface CreatedKey {
  id: number;
  label: string;
  prefix: string;
  key: string;
}

const title = () => tr('app.apiKeys.title');
const ENTRY = navEntry('apiKeys');

/** `create`: a refused new key, whose label the form shows again with the message at it. */
async function show(ctx: Context, page: CompanyPage, status: number, top: unknown, create?: Refused): Promise<void> {
  const rows = await listOf<ApiKeyRow>(page, '/system/api_keys?limit=1000');
  const base = ENTRY.path(page.company.dataset);
  await renderPage(
    ctx,
    status,
    { title: title(), ...page, current: base },
    <>
      {top}
      <p class="hint">{tr('app.apiKeys.hint')}</p>
      <h2 id="create-heading">{tr('app.apiKeys.create')}</h2>
      <form method="post" action={base} aria-labelledby="create-heading">
        <Csrf token={page.csrf} />
        <Field
          id="label"
          name="label"
          label={tr('app.apiKeys.label')}
          required
          maxlength={100}
          placeholder={tr('app.apiKeys.labelExample')}
          value={shown(create, 'label', '')}
          refused={create}
        />
        <p>
          <button type="submit">{tr('app.apiKeys.createButton')}</button>
        </p>
      </form>
      <h2>{tr('app.apiKeys.keys')}</h2>
      {rows.length ? (
        <div class="table-wrap">
          <table id="api-keys">
            <caption>{tr('app.apiKeys.caption', { company: page.company.name })}</caption>
            <ColumnHeads
              columns={[
                tr('app.apiKeys.label'),
                tr('app.apiKeys.prefix'),
                tr('app.apiKeys.owner'),
                tr('app.common.created'),
                tr('app.apiKeys.lastUsed'),
                tr('app.apiKeys.action'),
              ]}
            />
            <tbody>
              {rows.map((k) => (
                <tr data-key={k.id}>
                  <td>{k.label}</td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{k.user}</td>
                  <td>{when(k.created_at)}</td>
                  <td>{k.last_used_at ? when(k.last_used_at) : tr('app.common.never')}</td>
                  <td>
                    <form method="post" action={`${base}/${k.id}/delete`} class="inline">
                      <Csrf token={page.csrf} />
                      <button
                        type="submit"
                        class="danger"
                        aria-label={tr('app.apiKeys.deleteLabel', { label: k.label })}
                      >
                        {tr('app.common.delete')}
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-keys">{tr('app.apiKeys.none')}</p>
      )}
    </>,
  );
}

export function apiKeysPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.apiKeys.why'), ENTRY.allowed);

  router.get('/management/:dataset/api-keys', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const notice = ctx.query.notice === 'deleted' ? <Notice kind="ok">{tr('app.apiKeys.deleted')}</Notice> : null;
    await show(ctx, page, 200, notice);
  });

  router.post('/management/:dataset/api-keys', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const label = String(bodyFields(ctx).label ?? '').trim();
    const created = await page.call('POST', '/system/api_keys', { label });
    if (created.status !== 201) {
      return show(
        ctx,
        page,
        created.status >= 500 ? 502 : 422,
        <Notice kind="error">{ledgerError(created).message}</Notice>,
        // the label is the form's only field: the ledger's message is about it
        { ...refusedForm({ label }, created), field: 'label' },
      );
    }
    const key = created.body as CreatedKey;
    // the secret is in this answer only (no redirect, not cached): it cannot be shown again
    await show(
      ctx,
      page,
      201,
      <div class="notice ok" role="status" id="key-created">
        <p>{tr('app.apiKeys.created', { label: key.label })}</p>
        <p>
          <code class="secret" id="new-key">
            {key.key}
          </code>
        </p>
        <button type="button" class="secondary" data-copy="new-key" hidden>
          {tr('app.apiKeys.copy')}
        </button>
      </div>,
    );
  });

  router.post('/management/:dataset/api-keys/:id/delete', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const id = String(ctx.params.id);
    const deleted = /^[1-9]\d{0,15}$/.test(id) ? await page.call('DELETE', `/system/api_keys/${id}`) : undefined;
    if (deleted?.status !== 204) {
      return show(
        ctx,
        page,
        deleted?.status === 404 || !deleted ? 404 : 422,
        <Notice kind="error">{deleted ? ledgerError(deleted).message : tr('app.apiKeys.noSuch')}</Notice>,
      );
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=deleted`);
  });
}
