/** The part of autocannon's programmatic API this bench uses (it ships no types of its own). */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (req: Request) => Request;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      requests?: Request[];
    }
    interface Result {
      requests: { average: number };
      latency: { p99: number };
      errors: number;
      non2xx: number;
    }
  }
  function autocannon(opts: autocannon.Options, done: (err: Error | null, result: autocannon.Result) => void): void;
  export default autocannon;
}
