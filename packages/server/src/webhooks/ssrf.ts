import dns from 'node:dns';
import net from 'node:net';

/** What the operator allows as a webhook target (ASSAY_WEBHOOK_ALLOW_PRIVATE, ASSAY_WEBHOOK_ALLOW_HTTP). */
export interface TargetPolicy {
  allowPrivate: boolean;
  allowHttp: boolean;
}

// Loopback, private, shared, link-local (with the cloud metadata address 169.254.169.254),
// multicast, reserved and documentation ranges: nothing a webhook may reach unless allowed.
const refused = new net.BlockList();
for (const [address, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refused.addSubnet(address, bits, 'ipv4');
}
for (const [address, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(address, bits, 'ipv6');
}

/** True for an address a webhook may not reach without ASSAY_WEBHOOK_ALLOW_PRIVATE. */
export function isRefusedAddress(address: string): boolean {
  const version = net.isIP(address);
  if (version === 4) return refused.check(address, 'ipv4');
  if (version !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return refused.check(mapped, 'ipv4');
  return refused.check(address, 'ipv6');
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
