/**
 * A person's browser, over plain HTTP: a cookie jar, manual redirects, and a small form
 * reader for the gateway's server-rendered pages (hidden fields such as the CSRF token are
 * taken from the form, as a browser would submit them).
 */
import { totp } from './totp.ts';

export interface FormField {
  name: string;
  value: string;
  type: string;
  checked: boolean;
}

export interface HtmlForm {
  action: string;
  method: string;
  fields: FormField[];
}

function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  if (!m) return undefined;
  return decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
}

export function parseForms(html: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const fields: FormField[] = [];
    for (const input of m[2]!.matchAll(/<(input|button)\b([^>]*)>/gi)) {
      const tag = input[2]!;
      const name = attr(tag, 'name');
      if (!name) continue;
      const type = (attr(tag, 'type') ?? (input[1]!.toLowerCase() === 'button' ? 'submit' : 'text')).toLowerCase();
      fields.push({ name, value: attr(tag, 'value') ?? '', type, checked: /\schecked\b/i.test(tag) });
    }
    forms.push({ action: attr(m[1]!, 'action') ?? '', method: (attr(m[1]!, 'method') ?? 'get').toLowerCase(), fields });
  }
  return forms;
}

/** The fields a browser submits: text/hidden/password, checked radios, and the clicked button. */
export function formData(
  form: HtmlForm,
  values: Record<string, string>,
  button?: { name: string; value: string },
): URLSearchParams {
  const data = new URLSearchParams();
  const set = new Set<string>();
  for (const f of form.fields) {
    if (f.type === 'submit') continue;
    if (f.type === 'radio' || f.type === 'checkbox') {
      if (set.has(f.name)) continue;
      if (values[f.name] !== undefined) {
        data.set(f.name, values[f.name]!);
        set.add(f.name);
      } else if (f.checked) data.append(f.name, f.value);
      continue;
    }
    data.set(f.name, values[f.name] ?? f.value);
    set.add(f.name);
  }
  for (const [k, v] of Object.entries(values))
    if (!set.has(k) && !form.fields.some((f) => f.name === k && f.type === 'radio')) data.set(k, v);
  if (button) data.set(button.name, button.value);
  return data;
}

export interface Page {
  status: number;
  url: string;
  headers: Headers;
  html: string;
}

export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  private store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader(url: string): Record<string, string> {
    if (new URL(url).origin !== this.origin || this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  /**
   * One request; redirects within the gateway are followed, a redirect elsewhere (to the
   * client's redirect URI) is returned as a 3xx page whose `url` is the Location.
   */
  async request(method: 'GET' | 'POST', url: string, body?: URLSearchParams): Promise<Page> {
    let current = new URL(url, this.origin).toString();
    let m: 'GET' | 'POST' = method;
    let payload = body;
    for (let hop = 0; hop < 10; hop++) {
      const res = await fetch(current, {
        method: m,
        redirect: 'manual',
        headers: {
          ...this.cookieHeader(current),
          ...(payload ? { 'content-type': 'application/x-www-form-urlencoded', origin: this.origin } : {}),
        },
        body: payload,
      });
      this.store(res);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        const next = new URL(location, current);
        if (next.origin !== this.origin)
          return { status: res.status, url: next.toString(), headers: res.headers, html: await res.text() };
        current = next.toString();
        m = 'GET';
        payload = undefined;
        continue;
      }
      return { status: res.status, url: current, headers: res.headers, html: await res.text() };
    }
    throw new Error('too many redirects');
  }

  async submit(
    page: Page,
    match: (f: HtmlForm) => boolean,
    values: Record<string, string>,
    button?: { name: string; value: string },
  ): Promise<Page> {
    const form = parseForms(page.html).find(match);
    if (!form) throw new Error(`no matching form on ${page.url} (HTTP ${page.status}):\n${page.html.slice(0, 2000)}`);
    return this.request('POST', new URL(form.action || page.url, page.url).toString(), formData(form, values, button));
  }
}

export interface Person {
  email: string;
  password: string;
  totpSecret: string;
}

export type AreaChoices = Partial<
  Record<'accounting' | 'invoices' | 'contacts' | 'bank' | 'documents', 'none' | 'read' | 'write'>
>;

export interface AuthorizationResult {
  /** the client's redirect URI with code, state and iss */
  callback: URL;
  /** the consent page as shown */
  consentHtml: string;
}

/**
 * Opens the authorization URL, signs in with password + TOTP when asked, chooses access per
 * area on the consent page and allows; returns where the browser is sent back to.
 */
export async function authorizeInBrowser(
  browser: Browser,
  authorizationUrl: URL,
  person: Person,
  choices: AreaChoices,
): Promise<AuthorizationResult> {
  let page = await browser.request('GET', authorizationUrl.toString());
  if (parseForms(page.html).some((f) => f.fields.some((x) => x.type === 'password'))) {
    page = await browser.submit(page, (f) => f.fields.some((x) => x.type === 'password'), {
      email: person.email,
      password: person.password,
      totp: totp(person.totpSecret),
    });
  }
  const consentHtml = page.html;
  const values: Record<string, string> = {};
  for (const [area, choice] of Object.entries(choices)) values[`area_${area}`] = choice;
  page = await browser.submit(page, (f) => f.fields.some((x) => x.name === 'decision'), values, {
    name: 'decision',
    value: 'allow',
  });
  if (page.status < 300 || page.status >= 400) {
    throw new Error(`consent did not redirect back (HTTP ${page.status}):\n${page.html.slice(0, 2000)}`);
  }
  return { callback: new URL(page.url), consentHtml };
}
