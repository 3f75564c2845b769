/** The consent page (SPEC.md "Consent page") and the page explaining why consent is not possible. */
import { AREAS, AREA_LABELS, WRITABLE_AREAS, type Area } from '@ledger/shared';
import type { AuthorizeRequest } from '../oauth/authorizeRequest.ts';
import { impersonationWarning } from '../oauth/impersonation.ts';
import type { SessionUser } from '../oauth/session.ts';
import { html, raw, type Raw } from './html.ts';

export type AreaChoice = 'none' | 'read' | 'write';

function hiddenParams(req: AuthorizeRequest, csrf: string): Raw {
  const fields = Object.entries(req.params).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
  return html`${fields}<input type="hidden" name="csrf" value="${csrf}">`;
}

function whoAsks(req: AuthorizeRequest): Raw {
  const c = req.client;
  const identity = c.verifiedHost
    ? html`<p class="notice ok" id="client-domain">Verified domain: <strong>${c.verifiedHost}</strong></p>`
    : html`<div class="notice warn" id="client-unverified" role="note"><strong>Unverified app.</strong> This app's identity could not be checked: its redirect addresses are not all https on one domain. Only continue if you started this connection yourself and trust the app.</div>`;
  const warning = impersonationWarning(c.clientName, c.verifiedHost);
  return html`<p><strong id="client-name">${c.clientName}</strong> wants to access your books.</p>
${identity}
${warning ? html`<div class="danger-box" id="impersonation-warning" role="alert">⚠ ${warning}</div>` : raw('')}
<p>After you decide, you will be sent back to <code id="redirect-target">${req.redirectUri}</code>.</p>`;
}

const CHOICE_LABEL: Record<AreaChoice, string> = { none: 'No access', read: 'Read', write: 'Read and change' };

function areaFieldset(area: Area, selected: AreaChoice): Raw {
  const choices: AreaChoice[] = WRITABLE_AREAS.includes(area) ? ['none', 'read', 'write'] : ['none', 'read'];
  const radios = choices.map((c) => {
    const id = `area-${area}-${c}`;
    return html`<label for="${id}"><input type="radio" id="${id}" name="area_${area}" value="${c}"${raw(c === selected ? ' checked' : '')}> ${CHOICE_LABEL[c]}</label>`;
  });
  return html`<fieldset><legend>${AREA_LABELS[area]}</legend>${radios}</fieldset>`;
}

export function defaultChoices(): Record<Area, AreaChoice> {
  return Object.fromEntries(AREAS.map((a) => [a, a === 'bank' ? 'none' : 'read'])) as Record<Area, AreaChoice>;
}

export function consentBody(req: AuthorizeRequest, user: SessionUser, csrf: string, choices = defaultChoices(), error?: string): Raw {
  const asked = req.requestedScopes.length ? req.requestedScopes.join(', ') : 'no particular scopes';
  return html`${error ? html`<div class="notice error" role="alert">${error}</div>` : raw('')}
${whoAsks(req)}
<p>Company: <strong id="company">${req.company.name}</strong> (<code>${req.dataset}</code>). Signed in as ${user.name} (${user.email}).</p>
<form method="post" action="/oauth/authorize">
${hiddenParams(req, csrf)}
<h2>What may the app do?</h2>
<p>The app asked for ${asked}. You decide what it gets; a write choice includes reading. What the app can do is also limited by your own role.</p>
${AREAS.map((a) => areaFieldset(a, choices[a]))}
<p><button type="submit" name="decision" value="allow" id="allow">Allow access</button>
<button type="submit" name="decision" value="deny" id="deny" class="secondary">Deny</button></p>
</form>`;
}

export function notAllowedBody(req: AuthorizeRequest, csrf: string, reason: string): Raw {
  return html`${whoAsks(req)}
<div class="notice error" role="alert" id="not-allowed"><p>${reason}</p></div>
<form method="post" action="/oauth/authorize">
${hiddenParams(req, csrf)}
<button type="submit" name="decision" value="deny" id="return">Return to the app</button>
</form>`;
}
