/**
 * Which IP addresses an outgoing call made for a stranger may go to: the one guard of the ledger's
 * webhook targets and the gateway's client metadata documents (both are URLs anyone can name, so
 * both could be aimed inward — at the cloud's metadata service, a database, the carrier's NAT).
 *
 * An address may be called when it lies in none of the special-purpose ranges: the IANA IPv4 and
 * IPv6 Special-Purpose Address Registries (every entry, also the few marked "globally reachable",
 * such as anycast relays: no receiver of ours lives there), multicast, the reserved space, and
 * everything of IPv6 outside global unicast (2000::/3). Addresses that carry an IPv4 address inside
 * (IPv4-mapped ::ffff:a.b.c.d) are judged by that IPv4 address; the translation and tunnel
 * prefixes (64:ff9b::/96, 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32, IPv4-compatible
 * ::/96) are refused whole, since where they end up is decided by a gateway we cannot see.
 *
 * The name of the range is given to the caller for its logs and tests, never to be put into an
 * answer: a refusal says only that the address may not be called.
 */
import { BlockList, isIP } from 'node:net';

interface Range {
  prefix: string;
  bits: number;
  name: string;
}

/** IPv4: the special-purpose registry (RFC 6890 and successors), multicast and broadcast. */
export const SPECIAL_IPV4_RANGES: readonly Range[] = [
  { prefix: '0.0.0.0', bits: 8, name: 'this network' },
  { prefix: '10.0.0.0', bits: 8, name: 'private' },
  { prefix: '100.64.0.0', bits: 10, name: 'shared address space (CGNAT)' },
  { prefix: '127.0.0.0', bits: 8, name: 'loopback' },
  { prefix: '169.254.0.0', bits: 16, name: 'link-local' },
  { prefix: '172.16.0.0', bits: 12, name: 'private' },
  { prefix: '192.0.0.0', bits: 24, name: 'IETF protocol assignments' },
  { prefix: '192.0.2.0', bits: 24, name: 'documentation (TEST-NET-1)' },
  { prefix: '192.31.196.0', bits: 24, name: 'AS112' },
  { prefix: '192.52.193.0', bits: 24, name: 'AMT' },
  { prefix: '192.88.99.0', bits: 24, name: '6to4 relay anycast' },
  { prefix: '192.168.0.0', bits: 16, name: 'private' },
  { prefix: '192.175.48.0', bits: 24, name: 'AS112 direct delegation' },
  { prefix: '198.18.0.0', bits: 15, name: 'benchmarking' },
  { prefix: '198.51.100.0', bits: 24, name: 'documentation (TEST-NET-2)' },
  { prefix: '203.0.113.0', bits: 24, name: 'documentation (TEST-NET-3)' },
  { prefix: '224.0.0.0', bits: 4, name: 'multicast' },
  { prefix: '240.0.0.0', bits: 4, name: 'reserved' },
  { prefix: '255.255.255.255', bits: 32, name: 'broadcast' },
];

/**
 * IPv6: the special-purpose registry inside global unicast; everything outside 2000::/3 (loopback,
 * unspecified, IPv4-compatible, unique local, link-local, site-local, multicast, the discard and
 * translation prefixes) is refused by `outsideGlobalUnicast`. IPv4-mapped addresses are not listed:
 * they are judged as the IPv4 address they carry.
 */
export const SPECIAL_IPV6_RANGES: readonly Range[] = [
  { prefix: '::', bits: 128, name: 'unspecified' },
  { prefix: '::1', bits: 128, name: 'loopback' },
  { prefix: '::', bits: 96, name: 'IPv4-compatible' },
  { prefix: '64:ff9b::', bits: 96, name: 'IPv4/IPv6 translation' },
  { prefix: '64:ff9b:1::', bits: 48, name: 'local IPv4/IPv6 translation' },
  { prefix: '100::', bits: 64, name: 'discard-only' },
  { prefix: '100:0:0:1::', bits: 64, name: 'dummy prefix' },
  { prefix: '2001::', bits: 23, name: 'IETF protocol assignments (Teredo, benchmarking, ORCHID, …)' },
  { prefix: '2001:db8::', bits: 32, name: 'documentation' },
  { prefix: '2002::', bits: 16, name: '6to4' },
  { prefix: '2620:4f:8000::', bits: 48, name: 'AS112 direct delegation' },
  { prefix: '3fff::', bits: 20, name: 'documentation' },
  { prefix: '5f00::', bits: 16, name: 'segment routing (SRv6) SIDs' },
  { prefix: 'fc00::', bits: 7, name: 'unique local' },
  { prefix: 'fe80::', bits: 10, name: 'link-local' },
  { prefix: 'fec0::', bits: 10, name: 'site-local (deprecated)' },
  { prefix: 'ff00::', bits: 8, name: 'multicast' },
];

const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet('2000::', 3, 'ipv6');

function listOf(ranges: readonly Range[], family: 'ipv4' | 'ipv6'): { range: Range; list: BlockList }[] {
  return ranges.map((range) => {
    const list = new BlockList();
    list.addSubnet(range.prefix, range.bits, family);
    return { range, list };
  });
}

const V4 = listOf(SPECIAL_IPV4_RANGES, 'ipv4');
const V6 = listOf(SPECIAL_IPV6_RANGES, 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part included). */
function groupsOf(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back];
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d, ::ffff:xxxx:xxxx), or undefined. */
export function mappedIpv4(address: string): string | undefined {
  if (isIP(address) !== 6) return undefined;
  const g = groupsOf(address);
  if (g.slice(0, 5).some((x) => x !== 0) || g[5] !== 0xffff) return undefined;
  const high = g[6]!;
  const low = g[7]!;
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The special-purpose range an address lies in ('loopback', 'private', …), 'invalid' for what is
 * not an IP address or carries a zone index (fe80::1%eth0), undefined for an address that
 * may be called.
 */
export function specialRangeOf(address: string): string | undefined {
  const family = isIP(address);
  // a zone index (fe80::1%eth0) names an interface of this machine: never a stranger's address
  if (address.includes('%')) return 'invalid';
  if (family === 4) return V4.find((r) => r.list.check(address, 'ipv4'))?.range.name;
  if (family !== 6) return 'invalid';
  const mapped = mappedIpv4(address);
  if (mapped !== undefined) return specialRangeOf(mapped);
  const special = V6.find((r) => r.list.check(address, 'ipv6'))?.range.name;
  if (special) return special;
  return GLOBAL_UNICAST_V6.check(address, 'ipv6') ? undefined : 'outside global unicast';
}

/** May an outgoing call for a stranger go to this address? (No special-purpose range.) */
export function isPublicAddress(address: string): boolean {
  return specialRangeOf(address) === undefined;
}

/** Is this a loopback address (127.0.0.0/8, ::1, ::ffff:127.x.x.x)? For development and test allowances only. */
export function isLoopbackAddress(address: string): boolean {
  return specialRangeOf(address) === 'loopback';
}

/** What a refusal says: that the address may not be called, not which address or range it was. */
export const ADDRESS_REFUSED = 'resolves to an address that may not be called';
