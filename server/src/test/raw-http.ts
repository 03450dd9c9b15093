import http from 'node:http';
import net from 'node:net';

/** One HTTP/1.1 exchange written by hand on a socket of its own, for requests no client library would send. */
export interface RawAnswer {
  /** The status line's code, or 0 when the server closed without answering. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** How long until the server closed the connection (or `waitMs` ran out: then `closed` is false). */
  ms: number;
  closed: boolean;
}

export function rawExchange(port: number, text: string | Buffer, waitMs = 5_000): Promise<RawAnswer> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    let closed = false;
    const done = () => {
      clearTimeout(timer);
      resolve({ ...parseAnswer(data), ms: Date.now() - started, closed });
    };
    const timer = setTimeout(() => {
      socket.destroy();
    }, waitMs);
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('end', () => (closed = true));
    socket.on('error', () => (closed = true));
    socket.on('close', () => {
      closed ||= Date.now() - started < waitMs;
      done();
    });
  });
}

export function parseAnswer(data: string): { status: number; headers: Record<string, string>; body: string } {
  const end = data.indexOf('\r\n\r\n');
  if (!data.startsWith('HTTP/1.1 ') || end < 0) return { status: 0, headers: {}, body: data };
  const [statusLine = '', ...lines] = data.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = data.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function unchunk(text: string): string {
  let out = '';
  for (let at = 0; at < text.length;) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!size) break;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
  return out;
}

/** A call through a keep-alive agent: the same connection carries the next call, as a browser's would. */
export function agentCall(
  agent: http.Agent,
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string; timeoutMs?: number } = {},
): Promise<{ status: number; body: string; socketReused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', agent, headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body, socketReused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.setTimeout(opts.timeoutMs ?? 5_000, () =>
      req.destroy(new Error(`no answer within ${opts.timeoutMs ?? 5_000} ms`)),
    );
    req.end(opts.body);
  });
}
