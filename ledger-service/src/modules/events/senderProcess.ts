/**
 * A ledger process for webhooks.killed.test.ts, which kills it with SIGKILL mid-delivery: its
 * config from the environment (DATABASE_URL, WEBHOOKS_QUEUE, WEBHOOKS_ALLOW_LOOPBACK), the
 * sender's options as JSON in WEBHOOK_OPTIONS; prints "listening" once it serves.
 */
import { loadConfig } from '../../config.ts';
import { startLedger } from '../../server.ts';

const config = loadConfig();
const ledger = await startLedger({
  config,
  mail: false,
  inbox: false,
  webhooks: JSON.parse(process.env.WEBHOOK_OPTIONS ?? '{}'),
});
await ledger.workersReady;
process.stdout.write('listening\n');
