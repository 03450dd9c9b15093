import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config';
import type { App } from '../context';

/*
 * Limits on what one client can hold of the HTTP server (issue 22, item 28): the time a request may take to arrive,
 * headers and body, and the connections one address may keep open. Without them, a client trickling bodies kept
 * hundreds of connections for minutes. docs/decisions.md "Finish (issue 22): the contract's sharp edges".
 */

/** How often Node looks for requests past their time: often enough that a bound holds within a second of itself. */
const checkEvery = (ms: number) => Math.max(50, Math.min(1_000, Math.floor(ms / 4)));

/**
 * Options of Node's HTTP server, as Fastify's `http` option passes them on (with Fastify's own `requestTimeout`, which
 * it sets again after). Host is checked by the app instead of Node, whose refusal is an empty 400 (http/input.ts).
 */
export function httpServerOptions(config: Config): ServerOptions & { requestTimeout: number } {
  return {
    requestTimeout: config.httpRequestTimeoutMs,
    headersTimeout: Math.min(config.httpHeadersTimeoutMs, config.httpRequestTimeoutMs),
    connectionsCheckingInterval: checkEvery(Math.min(config.httpHeadersTimeoutMs, config.httpRequestTimeoutMs)),
    requireHostHeader: false,
  };
}

/**
 * Which connecting addresses are proxies TRUST_PROXY trusts. Those are never capped: every client behind them arrives
 * from their address, and a proxy bounds its own clients. A hop count trusts whoever connects (the operator says
 * nobody reaches the app but through the proxy), so with one nothing is capped; with a list, only its addresses.
 */
function trustedProxy(setting: Config['trustProxy']): (address: string) => boolean {
  if (setting === false || setting === 0) return () => false;
  if (typeof setting === 'number') return () => true;
  const trust = proxyAddr.compile(setting);
  return (address) => trust(address, 0);
}

/**
 * Caps the connections one address holds open on this instance (HTTP_MAX_CONNECTIONS_PER_ADDRESS). The address is
 * the connection's own: X-Forwarded-For arrives with each request, after the connection is open, so it cannot
 * decide here. A connection past the cap is closed before anything is read, as Node's `server.maxConnections` does.
 * Upgraded connections (live sockets) count too, while they last.
 */
export function capConnectionsPerAddress(server: Server, config: Config): void {
  const cap = config.httpMaxConnectionsPerAddress;
  if (cap === 0) return;
  const exempt = trustedProxy(config.trustProxy);
  const open = new Map<string, number>();
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || exempt(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > cap) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * A request with an Expect other than 100-continue: Node answers 417 with no body unless someone listens; the
 * answer here says why, in the contract's {message} form.
 */
export function answerExpectations(server: Server): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({ message: 'Only "Expect: 100-continue" is supported.' });
    res.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    req.resume();
  });
}

/**
 * A request answered before its body was read to the end (a multipart form refused at its first bad field) would
 * leave the rest of that body unread, and the next request on its keep-alive connection unanswered: Node drops an
 * unread body by itself only when nobody began reading it. The rest is read and dropped here; how long that may
 * take is bounded by HTTP_REQUEST_TIMEOUT_MS like any body (issue 22, item 19).
 */
export function drainUnreadBodies(app: App): void {
  app.addHook('onResponse', async (req) => {
    const raw = req.raw;
    if (raw.complete || raw.destroyed) return;
    raw.unpipe();
    raw.removeAllListeners('data');
    raw.resume();
  });
}
