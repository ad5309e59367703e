import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Resolves a hostname to every address it names (`dns.lookup` with `all: true` in production). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface AddressPolicy {
  /** `WEBHOOKS_ALLOW_INSECURE`: http and loopback allowed (development and tests); never the other ranges. */
  allowInsecure: boolean;
}

/** Why an address or URL is refused; the message is what the person reads. */
export class RefusedWebhookUrl extends Error {
  override name = 'RefusedWebhookUrl';
}

/**
 * Whether a request may go to this IP address: only what ipaddr.js classes `unicast` (an IPv4-mapped IPv6
 * address unwrapped first), or `loopback` when insecure endpoints are allowed. Private (10/8, 172.16/12,
 * 192.168/16, fc00::/7), link-local (169.254/16 with the cloud metadata address, fe80::/10), unspecified,
 * carrier-grade NAT, multicast, reserved and the rest are never allowed.
 */
export function addressAllowed(address: string, policy: AddressPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  if (policy.allowInsecure && range === 'loopback') return true;
  // IPv6: global unicast (2000::/3) only; ipaddr.js's `unicast` is whatever no special range claims, unallocated
  // space included.
  if (parsed.kind() === 'ipv6') return range === 'unicast' && (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
  return range === 'unicast';
}

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** The URL's hostname without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Checks the URL's scheme and form only (no DNS): https, or http when insecure endpoints are allowed. */
export function checkUrlShape(raw: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedWebhookUrl('The URL is not a valid absolute URL.');
  }
  const schemes = policy.allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new RefusedWebhookUrl('A webhook URL must use https.');
  if (url.username || url.password) throw new RefusedWebhookUrl('A webhook URL may not carry credentials.');
  if (!url.hostname) throw new RefusedWebhookUrl('A webhook URL needs a host.');
  return url;
}

/**
 * The addresses the URL's host resolves to, every one of them allowed; throws RefusedWebhookUrl when the
 * host names none, or any one that is refused (a name that resolves to a public and a private address is
 * refused: which one a request would use is not ours to choose).
 */
export async function resolveAllowed(
  url: URL,
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): Promise<{ address: string; family: number }[]> {
  const host = bareHost(url);
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolveOrRefuse(resolve, host);
  // One answer whether the name is unknown or resolves inside: what a name resolves to on the server's network is
  // not a caller's to learn.
  if (addresses.length === 0 || addresses.some(({ address }) => !addressAllowed(address, policy))) {
    throw new RefusedWebhookUrl(
      `${host} is not an address webhooks are sent to: it must resolve, and only to public addresses (never loopback, private, link-local or reserved), within ${RESOLVE_TIMEOUT_MS / 1000} s.`,
    );
  }
  return addresses;
}

/** A name that has not resolved by then is refused (a request waits on it, and so does a delivery). */
export const RESOLVE_TIMEOUT_MS = 5_000;

async function resolveOrRefuse(resolve: Resolver, host: string) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([resolve(host), late]);
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}

/** The whole check of a webhook URL: its shape, then every address its host resolves to. */
export async function checkWebhookUrl(raw: string, policy: AddressPolicy, resolve: Resolver = systemResolver) {
  const url = checkUrlShape(raw, policy);
  await resolveAllowed(url, policy, resolve);
  return url;
}
