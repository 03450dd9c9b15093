import net from 'node:net';

/**
 * A TCP proxy between the app and a real server, so a test can play the network's failures: `cut()` drops every
 * connection and resets new ones (the server is down), `freeze()` keeps connections open but stops forwarding
 * bytes (the server hangs), `restore()` goes back to forwarding. It keeps its port all along: closing it while
 * "down" would let another process of a parallel test run take the port.
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
  let down = false;
  const server = net.createServer(accept);

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
    if (down) {
      client.on('error', () => {}).resetAndDestroy();
      return;
    }
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

  const dropAll = () => {
    for (const pair of pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    pairs.clear();
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async cut() {
      down = true;
      dropAll();
    },
    freeze() {
      frozen = true;
      for (const pair of pairs) hold(pair);
    },
    async restore() {
      down = false;
      if (frozen) {
        frozen = false;
        for (const pair of pairs) {
          forward(pair);
          pair.client.resume();
          pair.upstream.resume();
        }
      }
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      dropAll();
      await closed;
    },
  };
}
