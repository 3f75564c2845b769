/**
 * System → Management → API Keys (`/management/{dataset}/api-keys`): create a key with a label
 * (its secret is shown once, in the answer to the form post, never again), list the company's
 * keys, delete one (refused by the ledger from the next request on).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { ledgerError, listOf, seeOther } from './access.tsx';
import { bodyFields } from '../../http/bodyParser.ts';
import { ColumnHeads, Csrf, NAV, Notice, renderPage, when } from './ui.tsx';

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

const TITLE = 'System → Management → API Keys';
const ENTRY = NAV.flatMap((g) => g.entries).find((e) => e.label === 'API Keys')!;

async function show(ctx: Context, page: CompanyPage, status: number, top: unknown): Promise<void> {
  const rows = await listOf<ApiKeyRow>(page, '/system/api_keys?limit=1000');
  const base = ENTRY.path(page.company.dataset);
  await renderPage(
    ctx,
    status,
    { title: TITLE, ...page, current: base },
    <>
      {top}
      <p class="hint">
        An API key lets a program (an ERP, a script) use the REST API as the person who created it, with their role.
        Treat it like a password.
      </p>
      <h2 id="create-heading">Create a key</h2>
      <form method="post" action={base} aria-labelledby="create-heading">
        <Csrf token={page.csrf} />
        <label for="label">Label</label>
        <input type="text" id="label" name="label" required maxlength={100} placeholder="e.g. ERP export" />
        <p>
          <button type="submit">Create key</button>
        </p>
      </form>
      <h2>Keys</h2>
      {rows.length ? (
        <div class="table-wrap">
          <table id="api-keys">
            <caption>API keys of {page.company.name}</caption>
            <ColumnHeads columns={['Label', 'Prefix', 'Owner', 'Created', 'Last used', 'Action']} />
            <tbody>
              {rows.map((k) => (
                <tr data-key={k.id}>
                  <td>{k.label}</td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{k.user}</td>
                  <td>{when(k.created_at)}</td>
                  <td>{k.last_used_at ? when(k.last_used_at) : 'never'}</td>
                  <td>
                    <form method="post" action={`${base}/${k.id}/delete`} class="inline">
                      <Csrf token={page.csrf} />
                      <button type="submit" class="danger" aria-label={`Delete key ${k.label}`}>
                        Delete
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-keys">There are no API keys.</p>
      )}
    </>,
  );
}

export function apiKeysPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, TITLE, 'Owners and admins manage API keys.', ENTRY.allowed);

  router.get('/management/:dataset/api-keys', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const notice =
      ctx.query.notice === 'deleted' ? <Notice kind="ok">The key is deleted; it is refused from now on.</Notice> : null;
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
      );
    }
    const key = created.body as CreatedKey;
    // the secret is in this answer only (no redirect, not cached): it cannot be shown again
    await show(
      ctx,
      page,
      201,
      <div class="notice ok" role="status" id="key-created">
        <p>
          The key <strong>{key.label}</strong> is created. Copy it now: it is shown only once.
        </p>
        <p>
          <code class="secret" id="new-key">
            {key.key}
          </code>
        </p>
        <button type="button" class="secondary" data-copy="new-key" hidden>
          Copy key
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
        <Notice kind="error">{deleted ? ledgerError(deleted).message : 'No such key.'}</Notice>,
      );
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=deleted`);
  });
}
