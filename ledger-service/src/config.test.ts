/** The ledger's settings, read with the parsers it shares with the gateway. */
import t from 'tap';
import { ConfigError as SharedConfigError } from '@ledger/shared';
import { ConfigError as GatewayConfigError, loadConfig as loadGatewayConfig } from '../../mcp-gateway/src/config.ts';
import { ConfigError, loadConfig } from './config.ts';

t.test('every setting is validated, with one line naming the variable', async (t) => {
  const cases: [Record<string, string>, string][] = [
    [{ LEDGER_PORT: '70000' }, 'LEDGER_PORT must be a port number, got "70000"'],
    [{ LEDGER_JSON_LIMIT: '-1' }, 'LEDGER_JSON_LIMIT must be a non-negative integer, got "-1"'],
    [{ LEDGER_FILE_LIMIT: '10MB' }, 'LEDGER_FILE_LIMIT must be a non-negative integer, got "10MB"'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL must be a URL, got "not a url"'],
    [{ DATABASE_URL: 'mysql://db.example/ledger' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "loud"'],
    [{ MAIL_QUEUE: 'mail queue' }, 'MAIL_QUEUE must be 1–64 letters, digits, "_", "-" or "."'],
    [{ SMTP_URL: 'http://mail.example' }, 'SMTP_URL must be an smtp:// or smtps:// URL'],
  ];
  for (const [env, message] of cases) t.throws(() => loadConfig(env), new ConfigError(message), JSON.stringify(env));
});

t.test('defaults; an empty variable counts as unset', async (t) => {
  const defaults = loadConfig({});
  t.match(defaults, {
    databaseUrl: undefined,
    dataDir: './data',
    port: 3001,
    host: '127.0.0.1',
    publicUrl: 'http://localhost:3000',
    logLevel: 'info',
    jsonLimit: 15 * 1024 * 1024,
  });
  t.same(loadConfig({ LOG_LEVEL: '', PUBLIC_URL: '', DATA_DIR: '', LEDGER_PORT: '', MAIL_QUEUE: '' }), defaults);
  t.equal(defaults.mailQueue, 'mail_send');
  t.equal(
    loadConfig({ MAIL_QUEUE: 'e2e_mail.1' }).mailQueue,
    'e2e_mail.1',
    'a ledger sharing a database names its own mail queue',
  );
  t.equal(
    loadConfig({ DATABASE_URL: 'postgres://u@db.example:5432/ledger/' }).databaseUrl,
    'postgres://u@db.example:5432/ledger',
  );
});

t.test('one ConfigError and one reading of the variables both services share', async (t) => {
  t.equal(ConfigError, SharedConfigError);
  t.equal(GatewayConfigError, SharedConfigError, 'start.ts and the CLIs catch the same class for either service');
  // the same variable read by both: the same value, or the same error
  const publicUrl = (load: (env: Record<string, string>) => { publicUrl: string }, env: Record<string, string>) => {
    try {
      return load(env).publicUrl;
    } catch (err) {
      return (err as Error).message;
    }
  };
  const cases: Record<string, string>[] = [
    { PUBLIC_URL: 'https://books.example.com//' },
    { PUBLIC_URL: 'ftp://x.example' },
    { PUBLIC_URL: 'https://x.example/?q=1' },
    { LOG_LEVEL: 'LOUD' },
  ];
  for (const env of cases) {
    t.equal(publicUrl(loadConfig, env), publicUrl(loadGatewayConfig, env), JSON.stringify(env));
  }
});
