/**
 * What the two draft pages of the workstation share: an AR/AP document's (workstation.tsx) and a
 * journal entry's (journal.tsx). The way back to the list, who prepared the draft, its attached
 * files, the approve, change and delete forms and how a refusal to approve is shown are one copy
 * here, so that both pages look and answer alike for the person reviewing drafts.
 */
import type { Child } from 'hono/jsx';
import type { LedgerAnswer } from '../../ledgerClient.ts';
import { type CompanyPage, refusalText } from './access.tsx';
import { type AttachedFile, FilePreview } from './files.tsx';
import { tr } from './language.ts';
import { Csrf, Notice } from './ui.tsx';

export const AllDraftsLink = ({ href }: { href: string }) => (
  <p>
    <a href={href}>{tr('app.draft.all')}</a>
  </p>
);

/** Who prepared draft `id` ("e-mail via …", from the workstation's list filtered by `query`), or a dash. */
export async function preparedBy(page: CompanyPage, query: string, id: number): Promise<string> {
  const rows = await page.call('GET', `/arap/workstation?${query}&limit=1000`);
  const row =
    rows.status === 200
      ? (rows.body as { id: number; createdBy?: { email: string | null; via_text: string } }[]).find((r) => r.id === id)
      : undefined;
  return row?.createdBy ? `${row.createdBy.email ?? ''} ${row.createdBy.via_text}` : '—';
}

export function AttachedFiles({ files, href }: { files: AttachedFile[]; href: (file: AttachedFile) => string }) {
  return (
    <>
      <h2>{tr('app.draft.files')}</h2>
      {files.length ? files.map((f) => <FilePreview file={f} href={href(f)} />) : <p>{tr('app.draft.noFiles')}</p>}
    </>
  );
}

export const ApproveForm = ({ action, csrf }: { action: string; csrf: string }) => (
  <form method="post" action={action}>
    <Csrf token={csrf} />
    <p>
      <button type="submit" id="approve">
        {tr('app.draft.approve')}
      </button>
    </p>
  </form>
);

/** The change form: its heading, the description, then `children` (the date, the rows, a hint), then "Save". */
export function ChangeForm(props: { action: string; csrf: string; description?: string; children: Child }) {
  return (
    <>
      <h2 id="edit-heading">{tr('app.draft.change')}</h2>
      <form method="post" action={props.action} aria-labelledby="edit-heading" id="edit">
        <Csrf token={props.csrf} />
        <label for="description">{tr('app.common.description')}</label>
        <input type="text" id="description" name="description" maxlength={2000} value={props.description ?? ''} />
        {props.children}
        <p>
          <button type="submit" class="secondary">
            {tr('app.draft.saveChanges')}
          </button>
        </p>
      </form>
    </>
  );
}

export const DeleteForm = ({ action, csrf }: { action: string; csrf: string }) => (
  <form method="post" action={action}>
    <Csrf token={csrf} />
    <p>
      <button type="submit" class="danger">
        {tr('app.draft.delete')}
      </button>
    </p>
  </form>
);

/** The ledger's refusal of a draft's action, `stays`: saying the draft is left as it was. */
export const Refusal = ({ answer, stays }: { answer: LedgerAnswer; stays?: boolean }) => (
  <Notice kind="error" id="refusal">
    <p>{refusalText(answer)}</p>
    {stays ? <p>{tr('app.draft.stays')}</p> : null}
  </Notice>
);

/** A change the form itself refuses (`problem`, in words), before the ledger is asked. */
export const NothingSaved = ({ problem }: { problem: string }) => (
  <Notice kind="error" id="refusal">
    {problem} {tr('app.draft.nothingSaved')}
  </Notice>
);
