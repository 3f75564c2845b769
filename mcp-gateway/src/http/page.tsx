/**
 * The HTML document every page of the gateway shares, in hono's JSX (rendered to a string on the
 * server; every interpolated value is escaped by construction): the one stylesheet, the headers
 * every page gets (not frameable, not cached, a strict Content-Security-Policy: the gateway's own
 * stylesheet and script only, nothing inline), and the minimal pages shown without navigation
 * (sign-in, consent, error pages of someone not signed in). It lives in http/, below oauth/ and
 * pages/, so the consent page (oauth/) and the app's layout (pages/app/ui.tsx) both build on it.
 */
import type { Child } from 'hono/jsx';
import type { Context } from 'koa';

/**
 * No form-action here: the consent form's answer redirects to the client's own redirect URI,
 * which browsers check against form-action too. The app's pages add it (pages/app/ui.tsx).
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; frame-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'";

/** Security headers for every HTML page. */
export function pageHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Content-Type-Options', 'nosniff');
}

export interface DocumentProps {
  /** the document's <title> */
  title: string;
  /** the page's heading (defaults to the title) */
  heading?: string;
  /** the app's script (`/assets/app.js`), for pages that use it */
  script?: boolean;
  /** what comes before <main>: the app's header and navigation */
  top?: Child;
  /** the page's language (`<html lang>`; the app's pages speak the person's, the others English) */
  lang?: string;
  /** the skip link's text in that language */
  skipText?: string;
  children?: Child;
}

export function Document({ title, heading, script, top, lang, skipText, children }: DocumentProps) {
  return (
    <html lang={lang ?? 'en'}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{title}</title>
        <link rel="stylesheet" href="/assets/app.css" />
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        {script ? <script src="/assets/app.js" defer></script> : null}
      </head>
      <body>
        {top ? (
          <a class="skip" href="#main">
            {skipText ?? 'Skip to content'}
          </a>
        ) : null}
        {top}
        <main id="main">
          <h1>{heading ?? title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}

/**
 * Sends a rendered document with the page headers (`csp` replaces the shared policy). Synchronous,
 * so error handlers can answer with a page: the pages' components are plain functions, which hono
 * renders to a string at once (an async component would be a programming error, caught here).
 */
export function sendDocument(
  ctx: Context,
  status: number,
  page: { toString(): string | Promise<string> },
  csp = PAGE_CSP,
): void {
  const text = page.toString();
  if (typeof text !== 'string') throw new Error('a page rendered asynchronously; its components must be synchronous');
  pageHeaders(ctx);
  ctx.set('Content-Security-Policy', csp);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html>\n${text}`;
}

/** A minimal page without navigation: `body` under the title's heading. */
export function sendPage(ctx: Context, status: number, title: string, body: Child): void {
  sendDocument(ctx, status, <Document title={title}>{body}</Document>);
}

/** A minimal error page: the title and what went wrong. */
export function errorPage(ctx: Context, status: number, title: string, message: string): void {
  sendPage(
    ctx,
    status,
    title,
    <div class="notice error" role="alert">
      <p>{message}</p>
    </div>,
  );
}
