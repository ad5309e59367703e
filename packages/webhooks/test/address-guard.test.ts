import { describe, expect, it } from 'vitest';
import { addressAllowed, checkWebhookUrl, RefusedWebhookUrl, type Resolver } from '../src/address-guard';
import { nextAttemptAt } from '../src/schedule';

/** A resolver that answers from a table: no packet leaves the machine, not even a DNS query. */
const table =
  (answers: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const strict = { allowInsecure: false };
const insecure = { allowInsecure: true };

const REFUSED_EVERYWHERE = {
  '10/8': '10.1.2.3',
  '172.16/12': '172.20.0.5',
  '192.168/16': '192.168.1.10',
  'fc00::/7': 'fd12:3456:789a::1',
  'cloud metadata': '169.254.169.254',
  'link-local IPv4': '169.254.10.1',
  'link-local IPv6': 'fe80::1',
  'IPv4-mapped private': '::ffff:10.0.0.1',
  'IPv4-mapped metadata': '::ffff:169.254.169.254',
  'unspecified IPv4': '0.0.0.0',
  'unspecified IPv6': '::',
  'carrier-grade NAT': '100.64.0.1',
  multicast: '224.0.0.1',
  'IPv4-compatible metadata': '::169.254.169.254',
  'IPv6 outside global unicast': '4000::1',
};

describe('the address check', () => {
  for (const [range, address] of Object.entries(REFUSED_EVERYWHERE)) {
    it(`refuses ${range} (${address}), even with WEBHOOKS_ALLOW_INSECURE`, () => {
      expect(addressAllowed(address, strict)).toBe(false);
      expect(addressAllowed(address, insecure)).toBe(false);
    });
  }

  it('refuses loopback unless insecure endpoints are allowed', () => {
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1']) {
      expect(addressAllowed(address, strict)).toBe(false);
      expect(addressAllowed(address, insecure)).toBe(true);
    }
  });

  it('accepts a public unicast address', () => {
    expect(addressAllowed('93.184.216.34', strict)).toBe(true);
    expect(addressAllowed('2606:2800:220:1:248:1893:25c8:1946', strict)).toBe(true);
    expect(addressAllowed('::ffff:93.184.216.34', strict)).toBe(true);
  });

  it('refuses what is not an address', () => {
    expect(addressAllowed('not-an-address', insecure)).toBe(false);
  });
});

describe('a webhook URL', () => {
  const resolve = table({
    'hooks.example.com': ['93.184.216.34'],
    'internal.example.com': ['10.0.0.7'],
    'metadata.example.com': ['169.254.169.254'],
    'mixed.example.com': ['93.184.216.34', '192.168.0.2'],
    'six.example.com': ['fe80::1'],
    'mapped.example.com': ['::ffff:10.0.0.1'],
    'home.example.com': ['127.0.0.1'],
  });

  it('is accepted when https and every address its host resolves to is public', async () => {
    const url = await checkWebhookUrl('https://hooks.example.com/renamer?x=1', strict, resolve);
    expect(url.href).toBe('https://hooks.example.com/renamer?x=1');
  });

  it.each([
    ['http://hooks.example.com/', 'https'],
    ['ftp://hooks.example.com/', 'https'],
    ['not a url', 'valid'],
    ['https://user:pass@hooks.example.com/', 'credentials'],
    ['https://internal.example.com/', 'only to public addresses'],
    ['https://metadata.example.com/', 'only to public addresses'],
    ['https://mixed.example.com/', 'only to public addresses'],
    ['https://six.example.com/', 'only to public addresses'],
    ['https://mapped.example.com/', 'only to public addresses'],
    ['https://home.example.com/', 'only to public addresses'],
    ['https://[::1]/', '::1'],
    ['https://10.0.0.1/', '10.0.0.1'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['https://0.0.0.0/', '0.0.0.0'],
    ['https://nowhere.example.com/', 'it must resolve'],
  ])('refuses %s (%s)', async (raw, why) => {
    const refusal = checkWebhookUrl(raw, strict, resolve);
    await expect(refusal).rejects.toBeInstanceOf(RefusedWebhookUrl);
    await expect(refusal).rejects.toThrow(why);
  });

  it('takes http and loopback only with WEBHOOKS_ALLOW_INSECURE, never a private range', async () => {
    await expect(checkWebhookUrl('http://home.example.com:8080/', insecure, resolve)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('http://internal.example.com/', insecure, resolve)).rejects.toThrow(
      'public addresses',
    );
    await expect(checkWebhookUrl('http://metadata.example.com/', insecure, resolve)).rejects.toThrow(
      'public addresses',
    );
  });

  it('never tells what a name resolves to, nor whether it resolves at all (the server’s network is not the caller’s to map)', async () => {
    const refusal = async (raw: string): Promise<string> => {
      try {
        await checkWebhookUrl(raw, strict, resolve);
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    const [insideSaid, nowhereSaid] = await Promise.all([
      refusal('https://internal.example.com/'),
      refusal('https://nowhere.example.com/'),
    ]);
    expect(insideSaid).not.toContain('10.0.0.7');
    expect(insideSaid.replace('internal.example.com', 'HOST')).toBe(nowhereSaid.replace('nowhere.example.com', 'HOST'));
  });
});

describe('the retry schedule', () => {
  it('tries again within 30 s, then doubles the wait, and stops 24 hours after the first attempt', () => {
    const first = new Date('2026-01-01T00:00:00Z');
    const second = nextAttemptAt(1, first, first);
    expect(second!.getTime() - first.getTime()).toBeLessThanOrEqual(30_000);
    let at = first;
    let attempt = 1;
    const waits: number[] = [];
    for (;;) {
      const next = nextAttemptAt(attempt, first, at);
      if (!next) break;
      waits.push(next.getTime() - at.getTime());
      at = next;
      attempt += 1;
    }
    expect(waits[1]).toBe(2 * waits[0]!);
    expect(at.getTime() - first.getTime()).toBeLessThanOrEqual(24 * 3600 * 1000);
    expect(at.getTime() - first.getTime()).toBeGreaterThan(22 * 3600 * 1000);
    expect(attempt).toBeGreaterThan(10);
  });
});
