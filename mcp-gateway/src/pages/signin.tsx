/**
 * Sign-in with email, password and TOTP code (always all three), verified by the ledger.
 * Failed attempts back off per account and per IP address (oauth/backoff.ts); while the
 * limit store cannot answer, sign-in is refused with 503 rather than run without backoff. The
 * page is hono JSX in the minimal layout of http/page.tsx (no navigation: nobody is signed in).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { GatewayDeps } from '../deps.ts';
import type { SignInCheck } from '../ledgerClient.ts';
import { bodyFields, parseBody } from '../http/bodyParser.ts';
import { errorBoundary, pageErrors } from '../http/errors.ts';
import { LimitUnavailableError } from '../limits.ts';
import { normalizeEmail } from '../oauth/normalize.ts';
import { errorPage, sendPage } from '../http/page.tsx';

const DEFAULT_RETURN = '/account/ai-connections';

// where a page without a session sends the browser; it lives in oauth/session.ts, below the pages
// and the authorize endpoint that both use it
export { signInUrl } from '../oauth/session.ts';

/** Only our own pages may be returned to after sign-in (no open redirect). */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 8000) return DEFAULT_RETURN;
  if (!/^\/($|oauth\/authorize\?|account\/|management\/|books\/)/.test(value)) return DEFAULT_RETURN;
  if (/[\\\s]/.test(value) || value.startsWith('//')) return DEFAULT_RETURN;
  return value;
}

/**
 * Where the code comes from when trying the demo: nobody has the demo owner's secret in an
 * app yet. Shown only by a gateway in front of the embedded demo database (config.demo).
 */
const DemoCodeHint = () => (
  <p class="hint" id="demo-code-hint">
    Trying the demo? <code>npm start</code> printed the demo owner's e-mail and password and a QR code to scan with an
    authenticator app; or run <code>npx ledger totp owner@demo.example.com</code> in the repository for the current code
    (each code signs in once).
  </p>
);

function signInForm(csrf: string, returnTo: string, email = '', error?: string, demo = false) {
  return (
    <>
      {error ? (
        <div class="notice error" role="alert" id="signin-error">
          {error}
        </div>
      ) : null}
      <form method="post" action="/signin">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="return_to" value={returnTo} />
        <label for="email">Email</label>
        <input type="email" id="email" name="email" autocomplete="username" required maxlength={320} value={email} />
        <label for="password">Password</label>
        <input
          type="password"
          id="password"
          name="password"
          autocomplete="current-password"
          required
          maxlength={1024}
        />
        <label for="totp">Code from your authenticator app</label>
        <input
          type="text"
          id="totp"
          name="totp"
          inputmode="numeric"
          autocomplete="one-time-code"
          pattern="[0-9]{6}"
          required
          maxlength={6}
        />
        {demo ? <DemoCodeHint /> : null}
        <p>
          <button type="submit" id="signin">
            Sign in
          </button>
        </p>
      </form>
    </>
  );
}

function field(body: Readonly<Record<string, unknown>>, name: string, max: number): string {
  const v = body[name];
  return typeof v === 'string' && v.length <= max ? v : '';
}

export function signInRouter(deps: GatewayDeps): Router {
  const router = new Router();
  router.use(errorBoundary(pageErrors, deps.log), parseBody);
  const { sessions } = deps;
  const form = (csrf: string, returnTo: string, email = '', error?: string) =>
    signInForm(csrf, returnTo, email, error, deps.config.demo === true);

  router.get('/signin', async (ctx) => {
    const returnTo = safeReturnTo(ctx.query.return_to);
    if (await sessions.user(ctx)) {
      ctx.set('Cache-Control', 'no-store');
      return ctx.redirect(returnTo);
    }
    sendPage(ctx, 200, 'Sign in', form(sessions.csrfToken(ctx), returnTo));
  });

  router.post('/signin', async (ctx: Context) => {
    const body = bodyFields(ctx);
    const returnTo = safeReturnTo(body.return_to);
    if (!sessions.checkCsrf(ctx, body.csrf)) {
      return sendPage(
        ctx,
        403,
        'Sign in',
        form(sessions.csrfToken(ctx), returnTo, '', 'The form has expired (CSRF check failed). Please sign in again.'),
      );
    }
    const email = normalizeEmail(field(body, 'email', 320));
    const password = field(body, 'password', 1024);
    const totp = field(body, 'totp', 6);
    const accountKey = `acct:${email}`;
    const ipKey = `ip:${ctx.ip}`;
    const { account, ip } = deps.signInBackoff;
    const unavailable = () => {
      // fail closed: without the shared failure counts the backoff cannot hold (docs/operations.md)
      deps.metrics.limitStoreError('signin');
      ctx.set('Retry-After', '30');
      return sendPage(
        ctx,
        503,
        'Sign in',
        form(
          sessions.csrfToken(ctx),
          returnTo,
          email,
          'Sign-in is temporarily unavailable. Please try again in a minute.',
        ),
      );
    };
    let waitMs: number;
    try {
      waitMs = Math.max(await account.waitMs(accountKey), await ip.waitMs(ipKey));
    } catch (err) {
      if (!(err instanceof LimitUnavailableError)) throw err;
      deps.log.warn({ err: err.message }, 'sign-in refused: the limit store is unavailable');
      return unavailable();
    }
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      ctx.set('Retry-After', String(seconds));
      deps.log.warn({ ip: ctx.ip }, 'sign-in refused during backoff');
      return sendPage(
        ctx,
        429,
        'Sign in',
        form(sessions.csrfToken(ctx), returnTo, email, `Too many failed sign-ins. Try again in ${seconds} seconds.`),
      );
    }
    const check: SignInCheck =
      email && password && /^\d{6}$/.test(totp)
        ? await deps.ledger.verifyCredentials(email, password, totp)
        : { refused: 'invalid' };
    if (check.refused !== undefined) {
      try {
        await Promise.all([account.fail(accountKey), ip.fail(ipKey)]);
      } catch (err) {
        if (!(err instanceof LimitUnavailableError)) throw err;
        deps.log.warn({ err: err.message }, 'sign-in failure not counted: the limit store is unavailable');
        return unavailable();
      }
      deps.log.info({ ip: ctx.ip }, 'sign-in failed');
      return sendPage(
        ctx,
        401,
        'Sign in',
        form(
          sessions.csrfToken(ctx),
          returnTo,
          email,
          check.refused === 'code_used'
            ? `This code was already used to sign in; each code signs in once. Wait for the next code ` +
                `of your authenticator app (in ${check.nextCodeInSeconds} s) and enter that one.`
            : 'The email, password or code is not correct.',
        ),
      );
    }
    const { user } = check;
    // the person proved all three factors: a failure to clear the count only delays their next mistake
    await account
      .reset(accountKey)
      .catch((err: unknown) => deps.log.warn({ err: (err as Error).message }, 'sign-in backoff not reset'));
    await sessions.signIn(ctx, user);
    deps.log.info({ user: user.id }, 'signed in');
    ctx.status = 303;
    ctx.redirect(returnTo);
  });

  router.post('/signout', async (ctx) => {
    const body = bodyFields(ctx);
    if (!sessions.checkCsrf(ctx, body.csrf))
      return errorPage(ctx, 403, 'Sign out', 'The form could not be verified (CSRF check failed).');
    await sessions.signOut(ctx);
    ctx.status = 303;
    ctx.redirect('/signin');
  });

  return router;
}
