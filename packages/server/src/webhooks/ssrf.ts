import dns from 'node:dns';
import net from 'node:net';

/** What the operator allows as a webhook target (ASSAY_WEBHOOK_ALLOW_PRIVATE, ASSAY_WEBHOOK_ALLOW_HTTP). */
export interface TargetPolicy {
  allowPrivate: boolean;
  allowHttp: boolean;
}

// IPv4: the special-purpose ranges of IANA's IPv4 registry a webhook may not reach unless allowed:
// "this network", private, shared (CGN), loopback, link-local (with the cloud metadata address
// 169.254.169.254), IETF protocol assignments, documentation, the 6to4 relay, benchmarking,
// multicast, reserved and broadcast.
const refusedV4 = new net.BlockList();
for (const [address, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refusedV4.addSubnet(address, bits, 'ipv4');
}

/**
 * IPv6: every special-purpose range of IANA's IPv6 registry that is not a public unicast address,
 * and every form that reaches an IPv4 address without naming it plainly: IPv4-compatible (::/96,
 * `::127.0.0.1`), IPv4-translated (::ffff:0:0:0/96), 6to4 (2002::/16, which embeds any IPv4
 * address), Teredo (2001::/32, within the IETF block 2001::/23) and local-use NAT64
 * (64:ff9b:1::/48, whose mapping is the network's own). The two forms whose IPv4 address is
 * plainly the last 32 bits, IPv4-mapped (::ffff:0:0/96) and the well-known NAT64 prefix
 * (64:ff9b::/96), are decoded and judged by the IPv4 ranges instead (`embeddedIPv4`).
 */
export const REFUSED_IPV6: readonly (readonly [string, number, string])[] = [
  ['::', 96, 'unspecified, loopback and IPv4-compatible'],
  ['::ffff:0:0:0', 96, 'IPv4-translated'],
  ['64:ff9b:1::', 48, 'local-use IPv4/IPv6 translation'],
  ['100::', 64, 'discard-only'],
  ['100:0:0:1::', 64, 'dummy prefix'],
  ['2001::', 23, 'IETF protocol assignments, Teredo among them'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['2620:4f:8000::', 48, 'AS112 direct delegation'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'segment routing'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
];
const refusedV6 = new net.BlockList();
for (const [address, bits] of REFUSED_IPV6) refusedV6.addSubnet(address, bits, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a zone index dropped), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, extra] = text.split('::');
  if (extra !== undefined) return undefined;
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const groups =
    tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : undefined;
}

/**
 * The IPv4 address an IPv6 address stands for when its form says so plainly: IPv4-mapped
 * (::ffff:a.b.c.d) and the well-known NAT64 prefix (64:ff9b::a.b.c.d, RFC 6052).
 */
export function embeddedIPv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const mapped = zero(0, 5) && g[5] === 0xffff;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6);
  if (!mapped && !nat64) return undefined;
  const [high = 0, low = 0] = g.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** True for an address a webhook may not reach without ASSAY_WEBHOOK_ALLOW_PRIVATE. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '');
  const version = net.isIP(bare);
  if (version === 4) return refusedV4.check(bare, 'ipv4');
  if (version !== 6) return true;
  const v4 = embeddedIPv4(bare);
  if (v4 !== undefined) return refusedV4.check(v4, 'ipv4');
  return refusedV6.check(bare, 'ipv6');
}

/** The host of a URL as net sees it: IPv6 literals without their brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The URL's form, before any name is resolved: an absolute http(s) URL without credentials in it,
 * https unless allowed. Answers the problem, or undefined.
 */
export function urlProblem(text: string, policy: TargetPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'url: not a valid absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url: must start with https://';
  if (url.protocol === 'http:' && !policy.allowHttp && !policy.allowPrivate)
    return 'url: must start with https:// (the operator may allow http with ASSAY_WEBHOOK_ALLOW_HTTP=1)';
  if (url.username !== '' || url.password !== '') return 'url: must not hold a user name or password';
  if (url.hash !== '') return 'url: must not have a #fragment';
  return undefined;
}

const privateMessage = (host: string, address: string) =>
  `url: ${host} is a loopback, private or link-local address (${address}); the operator may allow such targets with ASSAY_WEBHOOK_ALLOW_PRIVATE=1`;

/**
 * Checks a target at create and update: its form, then every address its name resolves to.
 * Answers the problem, or undefined.
 */
export async function targetProblem(text: string, policy: TargetPolicy): Promise<string | undefined> {
  const problem = urlProblem(text, policy);
  if (problem || policy.allowPrivate) return problem;
  const host = hostOf(new URL(text));
  if (net.isIP(host) !== 0) return isRefusedAddress(host) ? privateMessage(host, host) : undefined;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    return `url: the name ${host} does not resolve`;
  }
  const bad = addresses.find((entry) => isRefusedAddress(entry.address));
  return bad ? privateMessage(host, bad.address) : undefined;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * The `lookup` of a delivery's connection: the name resolved when it connects, and refused when an
 * address is not allowed, so a name that changed its answer since the subscription was made (DNS
 * rebinding) still cannot reach a private address; the connection goes to the address checked.
 */
export function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const list = addresses as dns.LookupAddress[];
      const bad = policy.allowPrivate ? undefined : list.find((entry) => isRefusedAddress(entry.address));
      if (bad) {
        const refusal: NodeJS.ErrnoException = new Error(privateMessage(hostname, bad.address));
        refusal.code = 'EREFUSEDADDRESS';
        return callback(refusal, '');
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}
