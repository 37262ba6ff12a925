import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { freshDatabase } from '../helpers/instance.js';

/** A route a test adds beside the settings family's own, as a new route would be added by mistake. */
const added = vi.hoisted(() => ({ route: undefined as ((api: FastifyInstance) => void) | undefined }));

vi.mock('../../src/settings/settings.routes.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/settings/settings.routes.js')>();
  return {
    ...original,
    settingsRoutes: async (...args: Parameters<typeof original.settingsRoutes>) => {
      await original.settingsRoutes(...args);
      added.route?.(args[0] as unknown as FastifyInstance);
    },
  };
});

/** Builds the app on a fresh SQLite database; answers the error that stopped it, if any. */
async function startUp(): Promise<unknown> {
  const fresh = await freshDatabase('sqlite', undefined, { migrated: true });
  const config = loadConfig({ LOG_LEVEL: 'silent', ASSAY_DATA_DIR: fresh.dataDir });
  try {
    const app = await buildApp({ config, database: fresh.db, background: false });
    await app.close();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await fresh.db.close();
    await fresh.drop();
  }
}

describe('a route that says nothing about its guard stops start-up', () => {
  afterEach(() => {
    added.route = undefined;
  });

  it('starts with every route declared', async () => {
    expect(await startUp()).toBeUndefined();
  });

  it('names a route of a known family that declares no guard', async () => {
    added.route = (api) => api.get('/settings/forgotten', async () => ({ status: 'OK', data: 'open' }));
    const error = await startUp();
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^GET \/api\/v1\/settings\/forgotten declares no guard/);
  });

  it('names a route under a new first segment (once open by accident)', async () => {
    added.route = (api) => api.post('/newfamily/things', async () => ({ status: 'OK', data: 'open' }));
    expect((await startUp()) as Error).toHaveProperty(
      'message',
      expect.stringMatching(/^POST \/api\/v1\/newfamily\/things declares no guard/),
    );
  });

  it('refuses a guard that is neither a family nor public', async () => {
    added.route = (api) =>
      api.get('/settings/typo', { config: { guard: 'setting' as never } }, async () => ({ status: 'OK' }));
    expect((await startUp()) as Error).toHaveProperty(
      'message',
      expect.stringMatching(/^GET \/api\/v1\/settings\/typo declares an unknown guard "setting"/),
    );
  });
});
