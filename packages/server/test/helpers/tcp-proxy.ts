import net from 'node:net';

/** A TCP proxy to a server, which a test can cut (as a database that goes away) and restore. */
export interface TcpProxy {
  /** The loopback port it listens on, the same after a restore. */
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Ends every connection and refuses new ones (ECONNREFUSED), as a server that is down. */
  cut(): Promise<void>;
  /** Ends every connection and accepts new ones that never get an answer, as a network that drops them. */
  stall(): void;
  /** Resolves once a connection made while stalled is held (at once if one is). */
  stalledConnection(): Promise<void>;
  /** Forwards connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port to `target` (`host:port`). */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let stalled = false;
  let held = 0;
  const holders = new Set<() => void>();
  const server = net.createServer((client) => {
    if (stalled) {
      held += 1;
      for (const wake of holders) wake();
      holders.clear();
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      client.on('error', () => client.destroy());
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      // Either end failing ends both: the proxy itself never throws.
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const endAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    endAll();
    await closed;
  };
  return {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut,
    stall() {
      stalled = true;
      held = 0;
      endAll();
    },
    stalledConnection: () =>
      held > 0 ? Promise.resolve() : new Promise<void>((resolve) => holders.add(resolve)),
    async restore() {
      if (stalled) {
        stalled = false;
        endAll();
      }
      if (!server.listening) await listen(port);
    },
    close: async () => {
      if (server.listening) await cut();
    },
  };
}
