import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../../src/util/dates.js';
import { WebhookDelivery } from '../../src/webhooks/delivery.js';
import { queueEvent } from '../../src/webhooks/events.js';
import { embeddedIPv4, isRefusedAddress, REFUSED_IPV6 } from '../../src/webhooks/ssrf.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

/** An IPv6 address from its 128 bits, written in full (eight groups). */
const ipv6 = (bits: bigint) =>
  Array.from({ length: 8 }, (_, i) => ((bits >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
/** The 128 bits of an IPv6 address written in full or with `::`. */
function bitsOf(address: string): bigint {
  const [head = '', tail] = address.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill('0'), ...back];
  return groups.reduce((sum, group) => (sum << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

/** The first, a middle and the last address of each refused range of the registry. */
const RANGE_SAMPLES = REFUSED_IPV6.flatMap(([prefix, length, name]) => {
  const first = bitsOf(prefix);
  const size = 1n << BigInt(128 - length);
  return [first, first + size / 2n + 12345n, first + size - 1n].map((bits) => [ipv6(bits), name] as const);
});

/** The forms the audit found accepted, and others that reach a private IPv4 address. */
const EMBEDDING_IPV4 = [
  '::127.0.0.1', // IPv4-compatible
  '::7f00:1',
  '::a9fe:a9fe',
  '::ffff:0:127.0.0.1', // IPv4-translated
  '::ffff:0:7f00:1',
  '::ffff:127.0.0.1', // IPv4-mapped, decoded: loopback
  '::ffff:7f00:1',
  '::ffff:a9fe:a9fe', // the cloud metadata address
  '::ffff:10.1.2.3',
  '64:ff9b::127.0.0.1', // NAT64, decoded
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::c0a8:101',
  '64:ff9b:1::8.8.8.8', // local-use NAT64: the network's own mapping
  '2002:7f00:1::', // 6to4
  '2002:a9fe:a9fe::',
  '2002:808:808::', // 6to4 of a public address: still 6to4, refused
  '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
  '2001::1',
  'fe80::1%eth0', // link-local with a zone
  '::1%lo',
];

/** Public addresses that stay allowed. */
const PUBLIC = [
  '2606:4700:4700::1111',
  '2a00:1450:4001:82b::200e',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::8.8.8.8',
  '64:ff9b::808:808',
  '8.8.8.8',
  '1.1.1.1',
];

describe('the SSRF guard: IPv6 special-purpose ranges', () => {
  it.each(RANGE_SAMPLES)('refuses %s (%s)', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(EMBEDDING_IPV4)('refuses %s, which reaches an IPv4 address it may not', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(PUBLIC)('allows the public address %s', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  it('decodes the IPv4 address of the mapped and NAT64 forms only', () => {
    expect(embeddedIPv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIPv4('64:ff9b::a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIPv4('2002:7f00:1::')).toBeUndefined();
    expect(embeddedIPv4('::7f00:1')).toBeUndefined();
    expect(embeddedIPv4('not an address')).toBeUndefined();
  });

  it('refuses what is no address at all', () => {
    for (const text of ['', 'localhost', '1::2::3', '12345::', '::ffff:999.1.1.1']) {
      expect(isRefusedAddress(text)).toBe(true);
    }
  });
});

// Every literal form above, as a subscription's URL: refused when it is made, and again when a
// message is delivered (a URL written before this rule, or by hand, still reaches nothing).
const LITERALS = [
  ...EMBEDDING_IPV4.filter((address) => !address.includes('%')),
  ...RANGE_SAMPLES.map(([a]) => a),
];

for (const dialect of dialects) {
  describe(`webhook targets that embed IPv4 (${dialect})`, () => {
    let strict: Instance;

    beforeAll(async () => {
      strict = await startInstance(dialect);
    });
    afterAll(async () => {
      await strict?.close();
    });

    it('refuses every such target at registration, naming the address, and makes nothing', async () => {
      for (const address of LITERALS) {
        const answer = await strict.call('POST', '/webhooks', {
          body: { url: `https://[${address}]/hooks`, events: ['member.deleted'] },
        });
        expect(answer.json, address).toMatchObject({
          status: 'ERROR',
          data: expect.stringMatching(/^url: .* is a loopback, private or link-local address/),
        });
      }
      expect((await strict.call('GET', '/webhooks')).json.data).toEqual([]);
    });

    it('refuses them again at delivery, without a connection', async () => {
      const now = formatDate(new Date());
      const db = strict.db.kysely;
      for (const [index, address] of LITERALS.entries()) {
        const id = `Ssrf${String(index).padStart(6, '0')}`;
        await db
          .insertInto('webhook_subscriptions')
          .values({
            id,
            owner_id: null,
            url: `https://[${address}]/hooks`,
            events: 'member.deleted',
            description: null,
            enabled: 1,
            secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
            previous_secret: null,
            previous_until: null,
            failing_since: null,
            disabled_reason: null,
            created: now,
            updated: now,
          })
          .execute();
      }
      // One event, a message for each subscription.
      await queueEvent(db, 'member.deleted', { memberid: 'M000000001' }, { now });
      const worker = new WebhookDelivery({
        db,
        dialect,
        policy: { allowPrivate: false, allowHttp: false },
        backoffMs: () => 3_600_000,
      });
      try {
        while ((await worker.runOnce()) > 0);
      } finally {
        await worker.stop();
      }
      const attempts = await db.selectFrom('webhook_attempts').select(['subscription_id', 'error']).execute();
      expect(attempts).toHaveLength(LITERALS.length);
      for (const attempt of attempts) expect(attempt.error).toMatch(/^refused: .* is a loopback, private/);
    });
  });
}
