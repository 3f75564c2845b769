/**
 * The address guard shared by webhook targets and the gateway's client metadata documents
 * (shared/src/network/specialAddresses.ts), over every listed special-purpose range — its first
 * and last address, as IPv4 and IPv4-mapped IPv6 — and public examples; then the webhook
 * target's refusal, which says that the address may not be called and never which one it was.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import {
  isLoopbackAddress,
  isPublicAddress,
  SPECIAL_IPV4_RANGES,
  SPECIAL_IPV6_RANGES,
  specialRangeOf,
} from '@ledger/shared/network/specialAddresses';
import { addressAllowed, TargetClient, targetProblem } from './target.ts';

function ipv4ToInt(a: string): number {
  return a.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}
function intToIpv4(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

t.test('every IPv4 special-purpose range is refused, first to last address, also IPv4-mapped', async (t) => {
  for (const range of SPECIAL_IPV4_RANGES) {
    const first = ipv4ToInt(range.prefix);
    const last = first + 2 ** (32 - range.bits) - 1;
    for (const address of [intToIpv4(first), intToIpv4(last)]) {
      t.notOk(isPublicAddress(address), `${address} (${range.name})`);
      t.notOk(isPublicAddress(`::ffff:${address}`), `::ffff:${address} (${range.name}, IPv4-mapped)`);
      t.notOk(addressAllowed(address, false), `${address}: no webhook`);
    }
  }
});

t.test('the ranges named by the review, and the addresses just outside them', async (t) => {
  const refused = [
    '100.64.0.0',
    '100.127.255.255',
    '198.18.0.0',
    '198.19.255.255',
    '64:ff9b::a00:1',
    '64:ff9b::808:808',
    '64:ff9b:1::1',
    '64:ff9b:1:ffff:ffff:ffff:ffff:ffff',
    '::ffff:a00:1',
    '0:0:0:0:0:ffff:169.254.169.254',
    '::ffff:7f00:1',
    '::127.0.0.1',
    '2002:a00:1::1',
    '2001::1',
    '2001:db8::1',
    '3fff::1',
    '5f00::1',
    '100::1',
    'fd00::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::',
    '::1',
    'not an address',
  ];
  for (const address of refused) t.notOk(isPublicAddress(address), `${address}: ${specialRangeOf(address)}`);
  const allowed = ['100.63.255.255', '100.128.0.0', '198.17.255.255', '198.20.0.0'];
  for (const address of allowed) t.ok(isPublicAddress(address), `${address} lies outside`);
});

t.test('public addresses may be called', async (t) => {
  const examples = [
    '8.8.8.8',
    '1.1.1.1',
    '81.221.0.1',
    '193.5.0.1',
    '::ffff:8.8.8.8',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
  ];
  for (const address of examples) {
    t.ok(isPublicAddress(address), address);
    t.ok(addressAllowed(address, false), `${address}: a webhook may go there`);
  }
});

t.test('every listed IPv6 range is refused at its prefix', async (t) => {
  for (const range of SPECIAL_IPV6_RANGES) t.notOk(isPublicAddress(range.prefix), `${range.prefix} (${range.name})`);
});

t.test('loopback only where allowed, and only loopback', async (t) => {
  t.ok(isLoopbackAddress('127.0.0.1'));
  t.ok(isLoopbackAddress('::1'));
  t.ok(isLoopbackAddress('::ffff:127.0.0.2'));
  t.ok(addressAllowed('127.0.0.1', true));
  t.notOk(addressAllowed('127.0.0.1', false));
  t.notOk(addressAllowed('10.0.0.1', true), 'the loopback allowance allows no private address');
  t.notOk(addressAllowed('100.64.0.1', true));
});

t.test('a refused target says that the address may not be called, not which address it was', async (t) => {
  const problem = await targetProblem('https://localhost/hook', false);
  t.equal(problem, 'the host localhost resolves to an address that may not be called');
  t.notMatch(problem, /127\.0\.0\.1|::1/);
  t.match(await targetProblem('https://198.18.0.1/hook', false), /may not be called/);
  t.match(await targetProblem('https://[64:ff9b::a00:1]/hook', false), /may not be called/);

  // at delivery, on the address connected to: the recorded error names no address either
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const port = (server.address() as AddressInfo).port;
  const client = new TargetClient(false, 2_000);
  t.teardown(() => client.close());
  const result = await client.post(`https://localhost:${port}/hook`, {}, '{}');
  t.equal(result.statusCode, null);
  t.equal(result.error, 'localhost resolves to an address that may not be called');
  t.equal(hits, 0, 'nothing reached the receiver');
});
