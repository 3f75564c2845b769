/**
 * Payment files on the bank account page (docs/bank.md "Payment files", docs/app.md): the open
 * bills a pain.001 file can pay (posted, open vendor documents with the vendor's bank account,
 * in no file yet), a form to make a file of the ones ticked from this account
 * (`POST /bank/payment_files`), and the files made from it (`GET /bank/payment_files`), each
 * downloaded as the ledger wrote it (`GET /bank/payment_files/{id}`) for upload to the bank.
 */
import { roleHas } from '@ledger/shared';
import type { CompanyPage } from './access.tsx';
import { listOf } from './access.tsx';
import { tr } from './language.ts';
import { ColumnHeads, Csrf, day, Field, numeric, type Refused, shown, swissAmount, when } from './ui.tsx';

export interface PayableBill {
  id: number;
  name?: string;
  invNumber: string;
  documentNumber?: string;
  dueDate?: string;
  currency: string;
  open?: number;
  status: string;
  reversalOf?: number | null;
  vc_bank_id?: number | null;
}

interface PaymentFile {
  id: number;
  bank_account_id: number;
  execution_date: string;
  message_id: string;
  count: number;
  total: number;
  created_at: string;
  payments?: { document_id: number }[];
}

export interface PaymentFilesData {
  bills: PayableBill[];
  files: PaymentFile[];
}

export const mayMakePaymentFiles = (page: CompanyPage) => roleHas(page.company.role, 'bank.payment_files');

/**
 * The open bills a file can pay and this account's files; nothing for a role without the permission. A bill
 * without the vendor's bank account cannot be paid by a file (the ledger refuses it), so it is not offered.
 */
export async function paymentFilesOf(page: CompanyPage, accountId: number): Promise<PaymentFilesData> {
  if (!mayMakePaymentFiles(page)) return { bills: [], files: [] };
  const [documents, allFiles] = await Promise.all([
    roleHas(page.company.role, 'vendors.reports.transactions')
      ? listOf<PayableBill>(page, '/arap/documents/vendor?status=posted&limit=1000&sort=-id')
      : Promise.resolve<PayableBill[]>([]),
    listOf<PaymentFile>(page, '/bank/payment_files?limit=1000'),
  ]);
  const inFile = new Set(allFiles.flatMap((f) => (f.payments ?? []).map((p) => p.document_id)));
  const payable = (d: PayableBill) => (d.open ?? 0) > 0 && !d.reversalOf && typeof d.vc_bank_id === 'number';
  const bills = documents.filter((d) => payable(d) && !inFile.has(d.id));
  return { bills, files: allFiles.filter((f) => f.bank_account_id === accountId) };
}

/** The ids ticked in the form (`document`, once or repeated), in the order given. */
export function tickedDocuments(value: unknown): number[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values
    .map(String)
    .filter((v) => /^[1-9]\d{0,15}$/.test(v))
    .map(Number);
}

export function PaymentFiles(p: {
  page: CompanyPage;
  base: string;
  data: PaymentFilesData;
  refused?: Refused | undefined;
}) {
  const { page, base, data, refused } = p;
  if (!mayMakePaymentFiles(page)) return null;
  const ticked = refused ? new Set(tickedDocuments(refused.values.document)) : undefined;
  return (
    <section aria-labelledby="payment-files-heading">
      <h2 id="payment-files-heading">{tr('bank.paymentFiles.title')}</h2>
      <p class="hint">{tr('bank.paymentFiles.hint')}</p>
      {data.bills.length ? (
        <form method="post" action={`${base}/payment-files`} id="payment-file-form">
          <Csrf token={page.csrf} />
          <div class="table-wrap">
            <table id="payable-bills">
              <ColumnHeads
                columns={[
                  tr('bank.paymentFiles.pay'),
                  tr('bank.paymentFiles.bill'),
                  tr('bank.paymentFiles.vendor'),
                  tr('app.common.due'),
                  numeric(tr('bank.paymentFiles.open')),
                ]}
              />
              <tbody>
                {data.bills.map((b) => (
                  <tr data-bill={b.id}>
                    <td>
                      <input
                        type="checkbox"
                        id={`pay-${b.id}`}
                        name="document"
                        value={String(b.id)}
                        checked={ticked ? ticked.has(b.id) : true}
                        aria-label={tr('bank.paymentFiles.payBill', { number: b.invNumber })}
                      />
                    </td>
                    <td>
                      {b.invNumber}
                      {b.documentNumber ? ` (${b.documentNumber})` : ''}
                    </td>
                    <td>{b.name ?? ''}</td>
                    <td>{day(b.dueDate)}</td>
                    <td class="num">{`${b.currency} ${swissAmount(b.open)}`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Field
            id="execution-date"
            name="execution_date"
            type="date"
            label={tr('bank.paymentFiles.executionDate')}
            value={shown(refused, 'execution_date', '')}
            required
            refused={refused}
          />
          <p>
            <button type="submit">{tr('bank.paymentFiles.make')}</button>
          </p>
        </form>
      ) : (
        <p id="no-payable-bills">{tr('bank.paymentFiles.nothingToPay')}</p>
      )}
      {data.files.length ? (
        <div class="table-wrap">
          <table id="payment-files">
            <ColumnHeads
              columns={[
                tr('bank.paymentFiles.file'),
                tr('bank.paymentFiles.executionDate'),
                numeric(tr('bank.paymentFiles.count')),
                numeric(tr('bank.paymentFiles.total')),
                tr('bank.paymentFiles.created'),
              ]}
            />
            <tbody>
              {data.files.map((f) => (
                <tr data-file={f.id}>
                  <td>
                    <a href={`${base}/payment-files/${f.id}`} download={`pain001-${f.message_id}.xml`}>
                      {tr('bank.paymentFiles.download', { name: f.message_id })}
                    </a>
                  </td>
                  <td>{day(f.execution_date)}</td>
                  <td class="num">{String(f.count)}</td>
                  <td class="num">{swissAmount(f.total)}</td>
                  <td>{when(f.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-payment-files">{tr('bank.paymentFiles.none')}</p>
      )}
    </section>
  );
}
