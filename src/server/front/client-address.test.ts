import { describe, expect, it } from 'vitest';
import { clientAddress, parseTrustedProxies } from './client-address.ts';

describe('parseTrustedProxies', () => {
  it('takes IPv4 and IPv6 addresses and ranges, repeated or comma-separated', () => {
    const trusted = parseTrustedProxies(['10.0.0.0/8, 127.0.0.1', 'fd00::/8', '::1']);
    const checked = ['10.200.3.4', '11.0.0.1', '127.0.0.1', '127.0.0.2', '::ffff:10.0.0.7', 'fd12::5', 'fe80::1', '::1', 'not-an-ip'];
    expect(checked.map((address) => trusted.has(address))).toEqual([true, false, true, false, true, true, false, true, false]);
  });

  it('a bad entry is an error naming it and showing the form', () => {
    for (const entry of ['10.0.0.0/33', 'proxy.local', '10.0.0.0/8/1', '::1/129', '10.0.0.0/x']) {
      expect(() => parseTrustedProxies([`127.0.0.1,${entry}`])).toThrow(`Atlas: --trust-proxy "${entry}" is not an IP address or CIDR range; pass e.g. --trust-proxy 10.0.0.0/8, --trust-proxy 127.0.0.1 or --trust-proxy fd00::/8.`);
    }
  });
});

describe('clientAddress', () => {
  const trusted = parseTrustedProxies(['10.0.0.0/8']);

  it('the peer, unless it is a trusted proxy; then the rightmost hop that is not', () => {
    expect(clientAddress('203.0.113.5', '198.51.100.1', trusted)).toBe('203.0.113.5');
    expect(clientAddress('10.0.0.5', undefined, trusted)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', '203.0.113.7', trusted)).toBe('203.0.113.7');
    // A client that sends its own header cannot choose: its proxy appends the address it saw.
    expect(clientAddress('::ffff:10.0.0.5', '1.2.3.4, 203.0.113.7, 10.0.0.9', trusted)).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.5', '[2001:db8::1], 10.1.1.1', trusted)).toBe('2001:db8::1');
    // Every hop a trusted proxy: the leftmost.
    expect(clientAddress('10.0.0.5', '10.9.9.9, 10.1.1.1', trusted)).toBe('10.9.9.9');
  });
});
