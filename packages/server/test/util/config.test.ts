import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has defaults that serve ./data on 8080, and flags win over the environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      adminEmail: 'admin@localhost',
      mailFrom: 'Assay <assay@localhost>',
      trustProxy: false,
      auditRetentionDays: 400,
      outboxRetentionDays: 90,
    });
    expect(loadConfig({ ASSAY_AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    expect(loadConfig({ ASSAY_OUTBOX_RETENTION_DAYS: '7' }).outboxRetentionDays).toBe(7);
    expect(Object.isFrozen(config)).toBe(true);
    const flagged = loadConfig({ PORT: '9000', HOST: '::1' }, { port: '9001', host: 'localhost' });
    expect([flagged.port, flagged.host]).toEqual([9001, 'localhost']);
    expect(loadConfig({ PORT: '9000' }).port).toBe(9000);
  });

  it('reads the trusted proxies as true, a number of hops, or addresses and ranges', () => {
    expect(loadConfig({ ASSAY_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ASSAY_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ASSAY_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
  });

  it('reads the origins allowed to call the token surfaces from web pages, none by default', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(
      loadConfig({ ASSAY_CORS_ORIGINS: ' https://app.example.com, http://localhost:6274 ,' }).corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:6274']);
  });

  it('keeps answers unless ASSAY_RETENTION_DAYS names a number of days', () => {
    expect(loadConfig({}).retentionDays).toBeNull();
    expect(loadConfig({ ASSAY_RETENTION_DAYS: '' }).retentionDays).toBeNull();
    expect(loadConfig({ ASSAY_RETENTION_DAYS: '365' }).retentionDays).toBe(365);
  });

  it('refuses a bad value with one line naming the variable', () => {
    const cases: [NodeJS.ProcessEnv, string][] = [
      [{ PORT: '70000' }, 'PORT: must be between 0 and 65535, got 70000'],
      [{ HOST: 'not..a..host' }, 'HOST: not an IP address or a host name: "not..a..host"'],
      [{ ASSAY_ADMIN_EMAIL: 'notanemail' }, 'ASSAY_ADMIN_EMAIL: must be an e-mail address, got "notanemail"'],
      [{ ASSAY_ADMIN_EMAIL: '' }, 'ASSAY_ADMIN_EMAIL: must be an e-mail address, got ""'],
      [
        { MAIL_FROM: 'Assay <nobody>' },
        'MAIL_FROM: must be "Name <address>" or an address, got "Assay <nobody>"',
      ],
      [
        { ASSAY_VARIANTS_DIR: '/nonexistent/assay' },
        'ASSAY_VARIANTS_DIR: no such folder: /nonexistent/assay',
      ],
      [{ ASSAY_VARIANTS_DIR: os.devNull }, `ASSAY_VARIANTS_DIR: no such folder: ${os.devNull}`],
      [
        { ASSAY_TRUST_PROXY: '10.0.0.0/40' },
        'ASSAY_TRUST_PROXY: "10.0.0.0/40" is not an address or a CIDR range',
      ],
      [
        { ASSAY_TRUST_PROXY: 'proxy.local' },
        'ASSAY_TRUST_PROXY: "proxy.local" is not an address or a CIDR range',
      ],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must start with postgres:// or postgresql://'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: must be one of'],
      [{ ASSAY_RETENTION_DAYS: '0' }, 'ASSAY_RETENTION_DAYS: must be between 1 and 36500, got 0'],
      [{ ASSAY_RETENTION_DAYS: '-30' }, 'ASSAY_RETENTION_DAYS: must be a whole number, got "-30"'],
      [{ ASSAY_RETENTION_DAYS: '30d' }, 'ASSAY_RETENTION_DAYS: must be a whole number, got "30d"'],
      [{ ASSAY_RETENTION_DAYS: '1.5' }, 'ASSAY_RETENTION_DAYS: must be a whole number, got "1.5"'],
      [{ ASSAY_RETENTION_DAYS: '99999' }, 'ASSAY_RETENTION_DAYS: must be between 1 and 36500, got 99999'],
      [{ ASSAY_AUDIT_RETENTION_DAYS: '0' }, 'ASSAY_AUDIT_RETENTION_DAYS: must be between 1 and 36600, got 0'],
      [{ ASSAY_AUDIT_RETENTION_DAYS: '-5' }, 'ASSAY_AUDIT_RETENTION_DAYS: must be a whole number, got "-5"'],
      [
        { ASSAY_AUDIT_RETENTION_DAYS: '1.5' },
        'ASSAY_AUDIT_RETENTION_DAYS: must be a whole number, got "1.5"',
      ],
      [
        { ASSAY_AUDIT_RETENTION_DAYS: 'a year' },
        'ASSAY_AUDIT_RETENTION_DAYS: must be a whole number, got "a year"',
      ],
      [
        { ASSAY_OUTBOX_RETENTION_DAYS: '0' },
        'ASSAY_OUTBOX_RETENTION_DAYS: must be between 1 and 36600, got 0',
      ],
      [
        { ASSAY_OUTBOX_RETENTION_DAYS: '90 days' },
        'ASSAY_OUTBOX_RETENTION_DAYS: must be a whole number, got "90 days"',
      ],
      ...[
        '*',
        'https://app.example.com/',
        'https://app.example.com/tool',
        'ftp://files.example.com',
        'app.example.com',
      ].map((origin): [NodeJS.ProcessEnv, string] => [
        { ASSAY_CORS_ORIGINS: `https://ok.example.com,${origin}` },
        `ASSAY_CORS_ORIGINS: "${origin}" is not an origin such as https://app.example.com (scheme, host and port only)`,
      ]),
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
    }
    expect(loadConfig({ MAIL_FROM: 'Team <team@example.com>' }).mailFrom).toBe('Team <team@example.com>');
    expect(loadConfig({ MAIL_FROM: 'team@example.com' }).mailFrom).toBe('team@example.com');
  });
});
