import type { FastifyInstance, RouteOptions } from 'fastify';

/** A console route as it was registered: its methods, its full path and the access it declares. */
export interface ConsoleRoute {
  readonly methods: readonly string[];
  /** With the `/console` prefix and its `:params`, e.g. `/console/access/users/:id`. */
  readonly url: string;
  readonly access: 'public' | 'admin' | 'operator';
}

// Per server (every encapsulated scope of one app shares its `server`), so that several apps in one
// process keep their own lists.
const registry = new WeakMap<object, ConsoleRoute[]>();

/** Records a route from the console plugin's `onRoute` hook. */
export function recordConsoleRoute(app: FastifyInstance, route: RouteOptions): void {
  const list = registry.get(app.server) ?? [];
  registry.set(app.server, list);
  list.push({
    methods: [route.method].flat(),
    url: route.url,
    access: route.config?.console ?? 'operator',
  });
}

/**
 * Every console route of an app and the access it declares (`config.console`), read from the app
 * itself: what a test walks to check that each admin page refuses other users.
 */
export function consoleRoutes(app: FastifyInstance): readonly ConsoleRoute[] {
  return registry.get(app.server) ?? [];
}
