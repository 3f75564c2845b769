/**
 * The demo's credentials as people see them: `<dataDir>/demo.json` (written on the first
 * `npm start` of an empty embedded database, read by `ledger demo show`) and the lines that
 * print them, with the second factor as a QR code an authenticator app can scan.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoInfo } from './demo.ts';
import { totpFor } from './db/users.ts';
import { terminalQr } from './cli/qr.ts';

export function demoFile(dataDir: string): string {
  return join(dataDir, 'demo.json');
}

/** Writes demo.json (mode 0600: it holds the password and the API key). */
export function writeDemoFile(dataDir: string, info: DemoInfo): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(demoFile(dataDir), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
}

/** demo.json, or undefined when there is none (or it is not a demo's credentials). */
export function readDemoFile(dataDir: string): DemoInfo | undefined {
  let info: Partial<DemoInfo>;
  try {
    info = JSON.parse(readFileSync(demoFile(dataDir), 'utf8')) as Partial<DemoInfo>;
  } catch {
    return undefined;
  }
  const complete =
    typeof info.dataset === 'string' &&
    typeof info.api_key === 'string' &&
    typeof info.user?.email === 'string' &&
    typeof info.user.password === 'string' &&
    typeof info.user.totp_secret === 'string';
  return complete ? (info as DemoInfo) : undefined;
}

/** The otpauth:// URI of the demo owner's second factor (what authenticator apps import). */
export function demoOtpauthUri(info: DemoInfo): string {
  return totpFor(info.user.email, info.user.totp_secret).toString();
}

/**
 * The credentials, then the second factor: how to get a code (`ledger totp`) and the QR code
 * of the otpauth URI. `color`: the QR code with ANSI colours, for a terminal (cli/qr.ts).
 */
export function demoLines(info: DemoInfo, opts: { color: boolean }): string[] {
  return [
    `Demo company "${info.dataset}"`,
    // the app's pages are on the same origin as the API (the gateway's); sign in with the owner below
    `  App (browser)  ${info.api_url}/`,
    `  REST base URL  ${info.base_url}`,
    `  MCP URL        ${info.mcp_url}`,
    `  API key        ${info.api_key}`,
    `  owner e-mail   ${info.user.email}`,
    `  password       ${info.user.password}`,
    `  TOTP secret    ${info.user.totp_secret}`,
    `  Sign-in code: run "npx ledger totp ${info.user.email}" for the current one, or scan`,
    '  this QR code with an authenticator app (Google Authenticator, 1Password, ...):',
    ...terminalQr(demoOtpauthUri(info), opts),
  ];
}
