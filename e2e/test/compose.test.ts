/**
 * docker-compose.yml and its haproxy configuration, checked without a container engine:
 * `docker-compose config` (Debian's docker-compose; npm test installs it, scripts/test-prerequisites.sh) validates the
 * file and names its services; `haproxy -c` validates deploy/haproxy.cfg.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = (cmd: string, args: string[]) =>
  spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } });

t.test('docker-compose.yml: valid; postgres, redis, ledger, two gateways behind haproxy', async (t) => {
  const valid = run('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q']);
  t.equal(valid.status, 0, `docker-compose config -q: ${valid.error?.message ?? ''}${valid.stderr}`);
  const services = run('docker-compose', ['-f', 'docker-compose.yml', 'config', '--services'])
    .stdout.split('\n')
    .filter(Boolean)
    .sort();
  t.same(services, ['gateway1', 'gateway2', 'haproxy', 'ledger', 'postgres', 'redis']);
  const config = run('docker-compose', ['-f', 'docker-compose.yml', 'config']).stdout;
  t.match(
    config,
    /GATEWAY_DATABASE_URL: postgres:\/\/postgres:[^@]*@postgres:5432\/gateway/,
    'the gateways keep their state in Postgres',
  );
  t.match(config, /REDIS_URL: redis:\/\/redis:6379/, 'and their limits in Redis');
  // the ledger never connects as the superuser: its role cannot bypass row-level security (docs/operations.md)
  t.match(config, /DATABASE_URL: postgres:\/\/ledger:[^@]*@postgres:5432\/ledger/, 'the ledger connects as ledger');
  t.notMatch(config, /DATABASE_URL: postgres:\/\/postgres:[^@]*@postgres:5432\/ledger/, 'not as the superuser');
  t.match(config, /postgres-roles\.sh/, 'whose role the database init script makes');
  t.equal(config.match(/healthcheck:/g)?.length, 5, 'postgres, redis, ledger and both gateways have health checks');
  t.equal(config.match(/published: 3000|- 3000:3000|"3000:3000"/g)?.length ?? 0, 1, 'only haproxy publishes a port');
});

t.test('deploy/haproxy.cfg is a valid haproxy configuration', async (t) => {
  const check = run('haproxy', ['-c', '-f', 'deploy/haproxy.cfg']);
  t.equal(check.status, 0, `${check.error?.message ?? ''}${check.stdout}${check.stderr}`);
});
