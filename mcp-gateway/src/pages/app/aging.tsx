/**
 * The open items of one side by age (`GET /arap/aging/{vc}`, as of today): per party the open
 * amount not yet due and 1–30, 31–60, 61–90 and over 90 days past due, in the base currency,
 * with the totals. Shown on the invoices and bills pages above their lists.
 */
import type { CompanyPage } from './access.tsx';
import type { Vc } from './draftForm.tsx';
import { tr } from './language.ts';
import { ColumnHeads, numeric, swissAmount } from './ui.tsx';

const BUCKETS = ['current', '1-30', '31-60', '61-90', 'over_90', 'total'] as const;
type Bucket = (typeof BUCKETS)[number];
type Amounts = Record<Bucket, number>;

interface Aging {
  currency: string;
  rows: (Amounts & { id: number; name: string })[];
  totals: Amounts;
}

/** The side's aging report, or undefined when the ledger refused it. */
export async function agingOf(page: CompanyPage, vc: Vc): Promise<Aging | undefined> {
  const answer = await page.call('GET', `/arap/aging/${vc}`);
  return answer.status === 200 ? (answer.body as Aging) : undefined;
}

const label = (b: Bucket) =>
  b === 'current'
    ? tr('app.aging.current')
    : b === 'over_90'
      ? tr('app.aging.over90')
      : b === 'total'
        ? tr('app.common.total')
        : tr('app.aging.days', { range: b.replace('-', '–') });

export function AgingTable({ aging, vc }: { aging: Aging | undefined; vc: Vc }) {
  if (!aging?.rows.length) return null;
  return (
    <section aria-labelledby="aging-heading">
      <h2 id="aging-heading">{tr(`app.aging.heading.${vc}`, { currency: aging.currency })}</h2>
      <div class="table-wrap">
        <table id="aging">
          <ColumnHeads
            columns={[
              tr(vc === 'customer' ? 'app.invoices.customer' : 'app.invoices.vendor'),
              ...BUCKETS.map((b) => numeric(label(b))),
            ]}
          />
          <tbody>
            {aging.rows.map((r) => (
              <tr data-party={r.id}>
                <td>{r.name}</td>
                {BUCKETS.map((b) => (
                  <td class="num">{swissAmount(r[b])}</td>
                ))}
              </tr>
            ))}
            <tr class="total">
              <th scope="row">{tr('app.common.total')}</th>
              {BUCKETS.map((b) => (
                <td class="num">{swissAmount(aging.totals[b])}</td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}
