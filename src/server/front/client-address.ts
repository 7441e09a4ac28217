// Who a request comes from, for per-client limits without a token: the socket's peer, or, when
// the peer is a proxy the server trusts (`--trust-proxy CIDR`), the address X-Forwarded-For names.
import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';
import { AtlasError } from '../../errors.ts';

/** The proxies whose X-Forwarded-For the server believes (IPv4 and IPv6 addresses and CIDR ranges). */
export interface TrustedProxies {
  /** Whether `address` (IPv4, IPv6 or IPv4-mapped IPv6) is one of them. */
  has(address: string): boolean;
}

/**
 * Parses `--trust-proxy` values: each an address or CIDR range (`10.0.0.0/8`, `::1`,
 * `fd00::/8`), or several separated by commas. A bad entry is an error naming it and the fix.
 *
 * @example
 * parseTrustedProxies(['10.0.0.0/8, 127.0.0.1']).has('10.1.2.3'); // true
 */
export function parseTrustedProxies(values: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const entry of values.flatMap((value) => value.split(',')).map((part) => part.trim()).filter((part) => part !== '')) {
    const [address = '', prefixText, extra] = entry.split('/');
    const family = isIP(address);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
    if (family === 0 || extra !== undefined || !/^\d*$/.test(prefixText ?? '') || !Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix) {
      throw new AtlasError('usage', `Atlas: --trust-proxy "${entry}" is not an IP address or CIDR range; pass e.g. --trust-proxy 10.0.0.0/8, --trust-proxy 127.0.0.1 or --trust-proxy fd00::/8.`);
    }
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    has: (address) => {
      const plain = unmapped(address);
      const family = isIP(plain);
      return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/**
 * The client address of a request from `peer` (the socket's address) carrying `forwardedFor`
 * (its X-Forwarded-For): the peer itself unless it is a trusted proxy; else, reading the
 * header's hops from the right, the first one that is not a trusted proxy (a client cannot
 * choose it by sending its own header: its proxy appends the address it saw). All trusted: the
 * leftmost hop. IPv4-mapped IPv6 addresses are given as IPv4.
 *
 * @example
 * clientAddress('10.0.0.5', '203.0.113.7, 10.0.0.9', parseTrustedProxies(['10.0.0.0/8'])); // '203.0.113.7'
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: TrustedProxies): string {
  let client = unmapped(peer);
  if (!trusted.has(client) || forwardedFor === undefined) return client;
  const hops = forwardedFor.split(',').map((hop) => unmapped(hop.trim().replace(/^\[(.*)\]$/, '$1'))).filter((hop) => hop !== '');
  for (const hop of hops.reverse()) {
    client = hop.slice(0, 64);
    if (!trusted.has(hop)) break;
  }
  return client;
}

/**
 * The remote address of a request served by @hono/node-server (`c.env.incoming`'s socket),
 * "unknown" when there is none (a request made in process with `app.request`).
 *
 * @example
 * peerAddress(c); // '127.0.0.1'
 */
export function peerAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

/**
 * `remoteAddress` for the app: {@link clientAddress} of the request's peer and X-Forwarded-For.
 *
 * @example
 * createApp(deps, { remoteAddress: forwardedClientAddress(parseTrustedProxies(['127.0.0.1'])) });
 */
export function forwardedClientAddress(trusted: TrustedProxies): (c: Context) => string {
  return (c) => clientAddress(peerAddress(c), c.req.header('x-forwarded-for'), trusted);
}

/** `::ffff:10.0.0.1` as `10.0.0.1`; any other text as it is. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1]! : address;
}
