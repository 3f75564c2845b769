/**
 * Books → Customers and vendors (`/books/{dataset}/parties?vc=customer|vendor&name=`): the list of
 * either side with a search by name, a form for a new one, and each party on its own page
 * (`/books/{dataset}/parties/{vc}/{id}`) to change it. Everything through the parties' REST
 * contracts (`GET/POST /arap/{vc}`, `GET/POST /arap/{vc}/{id}`): the ledger checks the role
 * (reading: `{customers,vendors}.*`; writing: `add_customer` / `add_vendor`) and the fields; a
 * refused form comes back as typed, with the message at its field. A party's page also shows its
 * documents, its payments and, for a vendor, its bank accounts with a form to add one and a page
 * per account to change or delete it. A party's language (its documents' and e-mails') is chosen
 * among the four, or left to the company's, which the choice names.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import {
  CATALOGUES,
  type contracts,
  formatIban,
  isLanguage,
  LANGUAGES,
  type Permission,
  type ResponseOf,
  roleHas,
} from '@ledger/shared';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { LedgerRefusal, listOf, readOr404, refusalStatus, refusedForm, seeOther } from './access.tsx';
import { tr } from './language.ts';
import { PartyDocuments, partyDocuments } from './partyDocuments.tsx';
import { PartyPayments, partyPayments } from './partyPayments.tsx';
import {
  bankAccountBody,
  bankAccountUpdate,
  bankRefusal,
  type VendorBankAccount,
  VendorBankAccountPage,
  VendorBankAccounts,
  vendorBankAccounts,
} from './vendorBankAccounts.tsx';
import { ColumnHeads, Csrf, Field, Notice, navEntry, type Refused, renderPage, Select, shown } from './ui.tsx';

type Vc = 'customer' | 'vendor';
/** A party as the ledger reads it (either side: the contract's answer). */
type Party = ResponseOf<typeof contracts.getParty>;

const title = () => tr('app.parties.title');
const ENTRY = navEntry('parties');
const ID = /^[1-9]\d{0,15}$/;

/** The fields the forms write, as the parties' contract names them (labelled `app.parties.field.{name}`). */
const FIELDS = [
  'name',
  'address1',
  'street',
  'zipcode',
  'city',
  'country',
  'email',
  'phone',
  'curr',
  'taxnumber',
  'terms',
  'language',
] as const;
type FormField = (typeof FIELDS)[number];

const READ: Record<Vc, Permission> = { customer: 'customers.customers', vendor: 'vendors.vendors' };
const WRITE: Record<Vc, Permission> = { customer: 'customers.add_customer', vendor: 'vendors.add_vendor' };

const vcOf = (value: unknown): Vc | undefined => (value === 'customer' || value === 'vendor' ? value : undefined);
const numberOf = (p: Party): string =>
  String(('customernumber' in p ? p.customernumber : 'vendornumber' in p ? p.vendornumber : '') ?? '');
/** A stored field as the form shows it (`curr` reads as `currency`). */
const stored = (p: Party | undefined, f: FormField): string => {
  if (!p) return '';
  const value = f === 'curr' ? p.currency : (p as Record<string, unknown>)[f];
  return value === null || value === undefined ? '' : String(value);
};

/**
 * The write body of a posted form: on create an empty field is left out, on update it is cleared
 * (null), the name always sent. Terms that are not a whole number are sent as typed: the ledger's
 * refusal names the field.
 */
function partyBody(f: Readonly<Record<string, unknown>>, update: boolean): Record<string, string | number | null> {
  const body: Record<string, string | number | null> = {};
  for (const name of FIELDS) {
    const value = String(f[name] ?? '').trim();
    if (value === '' && name !== 'name') {
      if (update) body[name] = null;
      continue;
    }
    body[name] = name === 'terms' && /^\d{1,4}$/.test(value) ? Number(value) : value;
  }
  return body;
}

/** A language by its name in itself (`Français`), so it reads the same whatever the page speaks. */
const languageName = (code: string): string => (isLanguage(code) ? CATALOGUES[code]['common.language'] : code);

/** The company's language, which a party without one of its own gets (GET /system/company; German unset). */
async function companyLanguage(page: CompanyPage): Promise<string> {
  const answer = await page.call('GET', '/system/company');
  const language = answer.status === 200 ? (answer.body as { language?: unknown }).language : undefined;
  return typeof language === 'string' ? language : 'de';
}

/** A party's language as the list and the read-only page say it: its own, or the company's. */
const partyLanguage = (p: Party, company: string): string =>
  typeof p.language === 'string' && p.language
    ? languageName(p.language)
    : tr('app.parties.language.company', { language: languageName(company) });

function PartyFields({ party, refused, company }: { party?: Party; refused?: Refused; company: string }) {
  return (
    <>
      {FIELDS.map((f) =>
        f === 'language' ? (
          <Select
            id="p-language"
            name="language"
            label={tr('app.parties.field.language')}
            value={shown(refused, f, stored(party, f))}
            empty={tr('app.parties.language.company', { language: languageName(company) })}
            options={LANGUAGES.map((l) => ({ value: l, label: languageName(l), lang: l }))}
            refused={refused}
          />
        ) : (
          <Field
            id={`p-${f}`}
            name={f}
            label={tr(`app.parties.field.${f}`)}
            type={f === 'email' ? 'email' : 'text'}
            required={f === 'name'}
            decimal={f === 'terms'}
            value={shown(refused, f, stored(party, f) || (party || f !== 'curr' ? '' : 'CHF'))}
            refused={refused}
          />
        ),
      )}
    </>
  );
}

export function partiesPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.parties.why'), ENTRY.allowed);
  const props = (page: CompanyPage) => ({ title: title(), ...page, current: ENTRY.path(page.company.dataset) });

  /** The list of one side; `refused`: a refused new party, shown again in the form. */
  async function showList(ctx: Context, page: CompanyPage, vc: Vc, status: number, top: unknown, refused?: Refused) {
    const base = ENTRY.path(page.company.dataset);
    const name = typeof ctx.query.name === 'string' ? ctx.query.name.slice(0, 200) : '';
    const may = roleHas(page.company.role, READ[vc]);
    const [rows, company] = await Promise.all([
      may ? listOf<Party>(page, `/arap/${vc}?limit=1000${name ? `&name=${encodeURIComponent(name)}` : ''}`) : [],
      companyLanguage(page),
    ]);
    const tab = (side: Vc) => (
      <a href={`${base}?vc=${side}`} aria-current={side === vc ? 'page' : undefined} class="button secondary">
        {tr(side === 'customer' ? 'app.parties.customers' : 'app.parties.vendors')}
      </a>
    );
    await renderPage(
      ctx,
      status,
      props(page),
      <>
        {top}
        <p>
          {tab('customer')}
          {tab('vendor')}
        </p>
        <form method="get" action={base} id="party-search">
          <input type="hidden" name="vc" value={vc} />
          <Field id="search-name" name="name" label={tr('app.parties.search')} value={name} />
          <p>
            <button type="submit" class="secondary">
              {tr('app.parties.searchButton')}
            </button>
          </p>
        </form>
        {rows.length ? (
          <div class="table-wrap">
            <table id="parties">
              <caption>{tr(`app.parties.caption.${vc}`, { company: page.company.name })}</caption>
              <ColumnHeads
                columns={[
                  tr('app.parties.number'),
                  tr('app.common.name'),
                  tr('app.parties.field.city'),
                  tr('app.common.email'),
                  tr('app.common.currency'),
                  tr('app.parties.language.column'),
                ]}
              />
              <tbody>
                {rows.map((p) => (
                  <tr data-party={p.id}>
                    <td>{numberOf(p)}</td>
                    <td>
                      <a href={`${base}/${vc}/${p.id}`}>{p.name}</a>
                    </td>
                    <td>{[p.zipcode, p.city].filter(Boolean).join(' ')}</td>
                    <td>{p.email ?? ''}</td>
                    <td>{p.currency ?? ''}</td>
                    <td>{partyLanguage(p, company)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p id="no-parties">{tr('app.parties.none')}</p>
        )}
        {roleHas(page.company.role, WRITE[vc]) ? (
          <>
            <h2 id="new-heading">{tr(`app.parties.new.${vc}`)}</h2>
            <form method="post" action={`${base}/${vc}`} aria-labelledby="new-heading" id="new-party">
              <Csrf token={page.csrf} />
              <PartyFields refused={refused} company={company} />
              <p>
                <button type="submit">{tr(`app.parties.create.${vc}`)}</button>
              </p>
            </form>
          </>
        ) : null}
      </>,
    );
  }

  async function partyOf(ctx: Context, page: CompanyPage): Promise<{ vc: Vc; party: Party } | undefined> {
    const vc = vcOf(ctx.params.vc);
    const id = String(ctx.params.id);
    const path = vc && ID.test(id) ? `/arap/${vc}/${id}` : undefined;
    const party = (await readOr404(ctx, page, props(page), path, tr('app.parties.noSuch'))) as Party | undefined;
    return vc && party ? { vc, party } : undefined;
  }

  async function showParty(
    ctx: Context,
    page: CompanyPage,
    vc: Vc,
    party: Party,
    status: number,
    top: unknown,
    refused?: Refused,
    refusedBank?: Refused,
  ) {
    const base = ENTRY.path(page.company.dataset);
    const heading = vc === 'customer' ? 'app.parties.customerTitle' : 'app.parties.vendorTitle';
    const [company, documents, payments, banks] = await Promise.all([
      companyLanguage(page),
      partyDocuments(page, vc, Number(party.id)),
      partyPayments(page, vc, Number(party.id)),
      vc === 'vendor' ? vendorBankAccounts(page, Number(party.id)) : Promise.resolve([]),
    ]);
    await renderPage(
      ctx,
      status,
      { ...props(page), title: `${tr(heading, { name: String(party.name) })} (${numberOf(party)})` },
      <>
        {top}
        <p>
          <a href={`${base}?vc=${vc}`}>{tr('app.parties.back')}</a>
        </p>
        {roleHas(page.company.role, WRITE[vc]) ? (
          <form method="post" action={`${base}/${vc}/${party.id}`} id="party">
            <Csrf token={page.csrf} />
            <PartyFields party={party} refused={refused} company={company} />
            <p class="hint">{tr('app.parties.emptyCleared')}</p>
            <p>
              <button type="submit">{tr('app.parties.save')}</button>
            </p>
          </form>
        ) : (
          <>
            <p class="hint">{tr('app.parties.readOnly')}</p>
            <dl id="party">
              {FIELDS.map((f) => (
                <>
                  <dt>{tr(`app.parties.field.${f}`)}</dt>
                  <dd>{f === 'language' ? partyLanguage(party, company) : stored(party, f) || '—'}</dd>
                </>
              ))}
            </dl>
          </>
        )}
        <PartyDocuments
          vc={vc}
          id={Number(party.id)}
          rows={documents}
          dataset={page.company.dataset}
          role={page.company.role}
        />
        <PartyPayments vc={vc} rows={payments} dataset={page.company.dataset} role={page.company.role} />
        {vc === 'vendor' ? (
          <VendorBankAccounts
            page={page}
            action={`${base}/vendor/${party.id}/bank-accounts`}
            rows={banks}
            refused={refusedBank}
          />
        ) : null}
      </>,
    );
  }

  router.get('/books/:dataset/parties', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const vc = vcOf(ctx.query.vc) ?? (roleHas(page.company.role, READ.customer) ? 'customer' : 'vendor');
    await showList(ctx, page, vc, 200, null);
  });

  router.post('/books/:dataset/parties/:vc', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const vc = vcOf(ctx.params.vc);
    if (!vc) return showList(ctx, page, 'customer', 404, <Notice kind="error">{tr('app.parties.noSuch')}</Notice>);
    const f = bodyFields(ctx);
    const answer = await page.call('POST', `/arap/${vc}`, partyBody(f, false));
    if (answer.status !== 201)
      return showList(ctx, page, vc, refusalStatus(answer), <LedgerRefusal answer={answer} />, refusedForm(f, answer));
    const created = answer.body as { id: number };
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}/${vc}/${created.id}?notice=created`);
  });

  router.get('/books/:dataset/parties/:vc/:id', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const found = await partyOf(ctx, page);
    if (!found) return;
    const notice =
      ctx.query.notice === 'created'
        ? tr('app.parties.created', { number: numberOf(found.party) })
        : ctx.query.notice === 'saved'
          ? tr('app.parties.saved')
          : ctx.query.notice === 'bank'
            ? tr('app.parties.bankAdded')
            : ctx.query.notice === 'bankSaved'
              ? tr('app.parties.bankSaved')
              : ctx.query.notice === 'bankDeleted'
                ? tr('app.parties.bankDeleted')
                : undefined;
    await showParty(ctx, page, found.vc, found.party, 200, notice ? <Notice kind="ok">{notice}</Notice> : null);
  });

  router.post('/books/:dataset/parties/:vc/:id', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const found = await partyOf(ctx, page);
    if (!found) return;
    const f = bodyFields(ctx);
    const answer = await page.call('POST', `/arap/${found.vc}/${found.party.id}`, partyBody(f, true));
    if (answer.status !== 200) {
      const top = <LedgerRefusal answer={answer} />;
      return showParty(ctx, page, found.vc, found.party, refusalStatus(answer), top, refusedForm(f, answer));
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}/${found.vc}/${found.party.id}?notice=saved`);
  });

  router.post('/books/:dataset/parties/:vc/:id/bank-accounts', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const found = await partyOf(ctx, page);
    if (!found) return;
    if (found.vc !== 'vendor') {
      return showParty(ctx, page, found.vc, found.party, 404, <Notice kind="error">{tr('app.parties.noSuch')}</Notice>);
    }
    const f = bodyFields(ctx);
    const answer = await page.call('POST', `/arap/vendor/${found.party.id}/bank_accounts`, bankAccountBody(f));
    if (answer.status !== 201) {
      const top = <LedgerRefusal answer={answer} />;
      const refused = bankRefusal(refusedForm(f, answer));
      return showParty(ctx, page, found.vc, found.party, refusalStatus(answer), top, undefined, refused);
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}/vendor/${found.party.id}?notice=bank#vendor-banks-heading`);
  });

  /** A vendor's bank account from the path (`…/vendor/{id}/bank-accounts/{bankId}`), or a 404 page. */
  async function bankOf(
    ctx: Context,
    page: CompanyPage,
  ): Promise<{ party: Party; bank: VendorBankAccount; path: string } | undefined> {
    const found = await partyOf(ctx, page);
    if (!found) return undefined;
    const bankId = String(ctx.params.bankId);
    const banks =
      found.vc === 'vendor' && ID.test(bankId) ? await vendorBankAccounts(page, Number(found.party.id)) : [];
    const bank = banks.find((b) => String(b.id) === bankId);
    if (!bank) {
      const gone = <Notice kind="error">{tr('app.parties.bank.noSuch')}</Notice>;
      await showParty(ctx, page, found.vc, found.party, 404, gone);
      return undefined;
    }
    const path = `${ENTRY.path(page.company.dataset)}/vendor/${found.party.id}/bank-accounts/${bank.id}`;
    return { party: found.party, bank, path };
  }

  async function showBank(
    ctx: Context,
    page: CompanyPage,
    at: { party: Party; bank: VendorBankAccount; path: string },
    status: number,
    top: unknown,
    refused?: Refused,
  ) {
    const iban = formatIban(at.bank.iban);
    await renderPage(
      ctx,
      status,
      { ...props(page), title: tr('app.parties.bank.title', { iban, name: String(at.party.name) }) },
      <>
        {top}
        <VendorBankAccountPage
          page={page}
          action={at.path}
          back={{ href: `${ENTRY.path(page.company.dataset)}/vendor/${at.party.id}`, name: String(at.party.name) }}
          bank={at.bank}
          refused={refused}
        />
      </>,
    );
  }

  router.get('/books/:dataset/parties/:vc/:id/bank-accounts/:bankId', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const at = await bankOf(ctx, page);
    if (at) await showBank(ctx, page, at, 200, null);
  });

  router.post('/books/:dataset/parties/:vc/:id/bank-accounts/:bankId', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const at = await bankOf(ctx, page);
    if (!at) return;
    const f = bodyFields(ctx);
    const answer = await page.call(
      'POST',
      `/arap/vendor/${at.party.id}/bank_accounts/${at.bank.id}`,
      bankAccountUpdate(f, at.bank),
    );
    if (answer.status !== 200) {
      const refused = bankRefusal(refusedForm(f, answer));
      return showBank(ctx, page, at, refusalStatus(answer), <LedgerRefusal answer={answer} />, refused);
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}/vendor/${at.party.id}?notice=bankSaved#vendor-banks-heading`);
  });

  router.post('/books/:dataset/parties/:vc/:id/bank-accounts/:bankId/delete', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const at = await bankOf(ctx, page);
    if (!at) return;
    const answer = await page.call('DELETE', `/arap/vendor/${at.party.id}/bank_accounts/${at.bank.id}`);
    if (answer.status !== 204) return showBank(ctx, page, at, refusalStatus(answer), <LedgerRefusal answer={answer} />);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}/vendor/${at.party.id}?notice=bankDeleted#vendor-banks-heading`);
  });
}
