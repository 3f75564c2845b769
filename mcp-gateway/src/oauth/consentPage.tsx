/**
 * The consent page (docs/oauth.md "Consent") and the page explaining why consent is not possible,
 * in hono's JSX (escaped by construction); authorize.ts sends them in the minimal layout of http/page.tsx.
 */
import { AREAS, AREA_LABELS, WRITABLE_AREAS, type Area } from '@ledger/shared';
import type { AuthorizeRequest } from './authorizeRequest.ts';
import type { ConnectionRow } from './connections.ts';
import { impersonationWarning } from './impersonation.ts';
import type { SessionUser } from './session.ts';
import type { Child } from 'hono/jsx';

export type AreaChoice = 'none' | 'read' | 'write';

/**
 * Granted scopes as people read them ("Contacts: Read; Invoices: Read and change"): on the consent
 * page and the AI-connections pages.
 */
export function scopeText(scopes: string): string {
  return scopes
    .split(' ')
    .filter(Boolean)
    .map((s) => {
      const [area, access] = s.split(':') as [Area, string];
      return `${AREA_LABELS[area] ?? area}: ${access === 'write' ? 'Read and change' : 'Read'}`;
    })
    .join('; ');
}

function HiddenParams({ req, csrf }: { req: AuthorizeRequest; csrf: string }) {
  return (
    <>
      {Object.entries(req.params).map(([k, v]) => (
        <input type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="csrf" value={csrf} />
    </>
  );
}

function WhoAsks({ req }: { req: AuthorizeRequest }) {
  const c = req.client;
  const warning = impersonationWarning(c.clientName, c.verifiedHost);
  return (
    <>
      <p>
        <strong id="client-name">{c.clientName}</strong> wants to access your books.
      </p>
      {c.verifiedHost ? (
        <p class="notice ok" id="client-domain">
          Verified domain: <strong>{c.verifiedHost}</strong>
        </p>
      ) : (
        <div class="notice warn" id="client-unverified" role="note">
          <strong>Unverified app.</strong> This app's identity could not be checked: its redirect addresses are not all
          https on one domain. Only continue if you started this connection yourself and trust the app.
        </div>
      )}
      {warning ? (
        <div class="danger-box" id="impersonation-warning" role="alert">
          ⚠ {warning}
        </div>
      ) : null}
      <p>
        After you decide, you will be sent back to <code id="redirect-target">{req.redirectUri}</code>.
      </p>
    </>
  );
}

const CHOICE_LABEL: Record<AreaChoice, string> = { none: 'No access', read: 'Read', write: 'Read and change' };

function AreaFieldset({ area, selected }: { area: Area; selected: AreaChoice }) {
  const choices: AreaChoice[] = WRITABLE_AREAS.includes(area) ? ['none', 'read', 'write'] : ['none', 'read'];
  return (
    <fieldset>
      <legend>{AREA_LABELS[area]}</legend>
      {choices.map((c) => {
        const id = `area-${area}-${c}`;
        return (
          <label for={id}>
            <input type="radio" id={id} name={`area_${area}`} value={c} checked={c === selected} /> {CHOICE_LABEL[c]}
          </label>
        );
      })}
    </fieldset>
  );
}

export function defaultChoices(): Record<Area, AreaChoice> {
  return Object.fromEntries(AREAS.map((a) => [a, a === 'bank' ? 'none' : 'read'])) as Record<Area, AreaChoice>;
}

/**
 * One active connection per person, company and app: allowing replaces the connection this
 * app already has, so the person learns it here, before deciding, with the access it has now.
 */
function ReplacesNotice({ req, existing }: { req: AuthorizeRequest; existing: ConnectionRow }) {
  return (
    <div class="notice warn" id="replaces-connection" role="note">
      You already connected <strong>{req.client.clientName}</strong> to {req.company.name} ({scopeText(existing.scopes)}
      ). Allowing access replaces that connection: it ends, and the app keeps only the access you choose here.
    </div>
  );
}

export interface ConsentOptions {
  choices?: Record<Area, AreaChoice>;
  error?: string;
  /** the person's active connection of this app to this company, which allowing replaces */
  replaces?: ConnectionRow;
}

export function consentBody(
  req: AuthorizeRequest,
  user: SessionUser,
  csrf: string,
  { choices = defaultChoices(), error, replaces }: ConsentOptions = {},
): Child {
  const asked = req.requestedScopes.length ? req.requestedScopes.join(', ') : 'no particular scopes';
  return (
    <>
      {error ? (
        <div class="notice error" role="alert">
          {error}
        </div>
      ) : null}
      <WhoAsks req={req} />
      <p>
        Company: <strong id="company">{req.company.name}</strong> (<code>{req.dataset}</code>).{' '}
        {`Signed in as ${user.name} (${user.email}).`}
      </p>
      {replaces ? <ReplacesNotice req={req} existing={replaces} /> : null}
      <form method="post" action="/oauth/authorize">
        <HiddenParams req={req} csrf={csrf} />
        <h2>What may the app do?</h2>
        <p>
          The app asked for {asked}. You decide what it gets; a write choice includes reading. What the app can do is
          also limited by your own role.
        </p>
        {AREAS.map((a) => (
          <AreaFieldset area={a} selected={choices[a]} />
        ))}
        <p>
          <button type="submit" name="decision" value="allow" id="allow">
            Allow access
          </button>{' '}
          <button type="submit" name="decision" value="deny" id="deny" class="secondary">
            Deny
          </button>
        </p>
      </form>
    </>
  );
}

export function notAllowedBody(req: AuthorizeRequest, csrf: string, reason: string): Child {
  return (
    <>
      <WhoAsks req={req} />
      <div class="notice error" role="alert" id="not-allowed">
        <p>{reason}</p>
      </div>
      <form method="post" action="/oauth/authorize">
        <HiddenParams req={req} csrf={csrf} />
        <button type="submit" name="decision" value="deny" id="return">
          Return to the app
        </button>
      </form>
    </>
  );
}
