import net from 'node:net';

/**
 * A TCP proxy between the app and a real server, so a test can play the network's failures: `cut()` drops every
 * connection and refuses new ones (the server is down), `freeze()` keeps connections open but stops forwarding
 * bytes (the server hangs), `restore()` goes back to forwarding.
 */
export interface TcpProxy {
  port: number;
  /** The target's URL with host and port replaced by the proxy's. */
  urlFor(url: string): string;
  cut(): Promise<void>;
  freeze(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let frozen = false;
  let server = net.createServer(accept);
  let port = 0;

  function forward(pair: Pair): void {
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
  }

  function hold(pair: Pair): void {
    pair.client.unpipe(pair.upstream);
    pair.upstream.unpipe(pair.client);
    pair.client.pause();
    pair.upstream.pause();
  }

  function accept(client: net.Socket): void {
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    if (frozen) hold(pair);
    else forward(pair);
  }

  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));

  await listen(0);
  return {
    get port() {
      return port;
    },
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async cut() {
      const closed = stopListening();
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      pairs.clear();
      await closed;
    },
    freeze() {
      frozen = true;
      for (const pair of pairs) hold(pair);
    },
    async restore() {
      if (frozen) {
        frozen = false;
        for (const pair of pairs) {
          forward(pair);
          pair.client.resume();
          pair.upstream.resume();
        }
      }
      if (!server.listening) {
        server = net.createServer(accept);
        await listen(port);
      }
    },
    async close() {
      const closed = server.listening ? stopListening() : Promise.resolve();
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await closed;
    },
  };
}
