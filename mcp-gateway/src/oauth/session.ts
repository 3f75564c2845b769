/**
 * Sign-in sessions and CSRF protection for the gateway's pages.
 *
 * - Session: a random id in an HttpOnly, SameSite=Lax cookie (Secure and `__Host-` prefixed
 *   when the public URL is https); stored only as a SHA-256 hash; 12 hours.
 * - CSRF: every visitor gets a random HttpOnly `csrf` cookie; each form carries
 *   HMAC(server secret, cookie value). A POST is accepted only when the field matches the
 *   cookie (constant-time) and, when the browser sends Origin, the Origin is ours.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { ms, type Db } from '../db/knex.ts';
import { LIFETIME } from './lifetimes.ts';
import { hashSecret, hmac, looksLike, newSecret, PREFIX, sameString } from './secrets.ts';

/** The sign-in page, returning to `returnTo` (one of our own pages) once signed in. */
export function signInUrl(returnTo: string): string {
  return `/signin?return_to=${encodeURIComponent(returnTo)}`;
}

export interface SessionUser {
  id: number;
  name: string;
  email: string;
}

interface CookieOptions {
  maxAgeSeconds?: number;
}

export class Sessions {
  private readonly secure: boolean;
  readonly sessionCookie: string;
  readonly csrfCookie: string;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly secret: Buffer,
    private readonly now: () => number,
  ) {
    this.secure = publicUrl.startsWith('https:');
    this.sessionCookie = this.secure ? '__Host-gw_session' : 'gw_session';
    this.csrfCookie = this.secure ? '__Host-gw_csrf' : 'gw_csrf';
  }

  private setCookie(ctx: Context, name: string, value: string, opts: CookieOptions = {}): void {
    const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
    if (this.secure) parts.push('Secure');
    if (opts.maxAgeSeconds !== undefined) parts.push(`Max-Age=${opts.maxAgeSeconds}`);
    ctx.append('Set-Cookie', parts.join('; '));
  }

  private readCookie(ctx: Context, name: string): string | undefined {
    const header = ctx.get('Cookie');
    for (const part of header.split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === name) return v.join('=');
    }
    return undefined;
  }

  /** The signed-in person, or undefined. */
  async user(ctx: Context): Promise<SessionUser | undefined> {
    if (ctx.state.sessionUser !== undefined) return ctx.state.sessionUser ?? undefined;
    const id = this.readCookie(ctx, this.sessionCookie);
    let user: SessionUser | undefined;
    if (looksLike(PREFIX.session, id)) {
      const hash = hashSecret(id);
      const row = await this.db('sessions').where({ id_hash: hash }).first();
      if (row && sameString(row.id_hash, hash) && ms(row.expires_at) > this.now()) {
        user = { id: Number(row.user_id), name: row.user_name, email: row.user_email };
      }
    }
    ctx.state.sessionUser = user ?? null;
    return user;
  }

  /** Starts a session (a new id on every sign-in) and renews the CSRF cookie. */
  async signIn(ctx: Context, user: SessionUser): Promise<void> {
    await this.forget(ctx);
    const id = newSecret(PREFIX.session);
    const now = this.now();
    await this.db('sessions').insert({
      id_hash: hashSecret(id),
      user_id: user.id,
      user_name: user.name,
      user_email: user.email,
      created_at: now,
      expires_at: now + LIFETIME.session,
    });
    await this.db('sessions').where('expires_at', '<', now).delete();
    this.setCookie(ctx, this.sessionCookie, id, { maxAgeSeconds: LIFETIME.session / 1000 });
    this.newCsrfCookie(ctx);
    ctx.state.sessionUser = user;
  }

  /** Deletes the visitor's current session, if any, from the store. */
  private async forget(ctx: Context): Promise<void> {
    const id = this.readCookie(ctx, this.sessionCookie);
    if (looksLike(PREFIX.session, id))
      await this.db('sessions')
        .where({ id_hash: hashSecret(id) })
        .delete();
  }

  async signOut(ctx: Context): Promise<void> {
    await this.forget(ctx);
    this.setCookie(ctx, this.sessionCookie, '', { maxAgeSeconds: 0 });
    ctx.state.sessionUser = null;
  }

  private newCsrfCookie(ctx: Context): string {
    const value = randomBytes(32).toString('base64url');
    this.setCookie(ctx, this.csrfCookie, value);
    ctx.state.csrfCookie = value;
    return value;
  }

  /** The CSRF token for forms on this page (sets the cookie when the visitor has none). */
  csrfToken(ctx: Context): string {
    let cookie = (ctx.state.csrfCookie as string | undefined) ?? this.readCookie(ctx, this.csrfCookie);
    if (!cookie || !/^[A-Za-z0-9_-]{43}$/.test(cookie)) cookie = this.newCsrfCookie(ctx);
    return hmac(this.secret, `csrf:${cookie}`);
  }

  /** True when the POST carries a valid CSRF token and, if Origin is sent, it is our origin. */
  checkCsrf(ctx: Context, field: unknown): boolean {
    const origin = ctx.get('Origin');
    if (origin && origin !== new URL(this.publicUrl).origin) return false;
    const cookie = this.readCookie(ctx, this.csrfCookie);
    if (!cookie || typeof field !== 'string' || field.length > 100) return false;
    return sameString(field, hmac(this.secret, `csrf:${cookie}`));
  }
}
