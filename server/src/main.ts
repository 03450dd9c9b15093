import { loadConfig } from './config';
import { DataDirLockedError } from './db/connection';
import { createServer } from './server';
import { ServiceUnreachableError, startWithRetry } from './start-up';

let config;
try {
  config = loadConfig();
} catch (err) {
  // A bad environment variable: one line saying which, not a stack trace.
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

let server;
try {
  const settings = config;
  server = await startWithRetry(() => createServer(settings), {
    retryForMs: config.startupRetryMs,
    say: (line) => console.error(line),
  });
} catch (err) {
  // An operator's situation, not a bug: one line saying what to do, not a stack trace.
  if (err instanceof DataDirLockedError || err instanceof ServiceUnreachableError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
const running = server;
const settings = config;

if (config.seedDemo) {
  const { seedDemoIfEmpty } = await import('./seed/demo');
  await seedDemoIfEmpty(running.ctx);
}

await running.app.listen({ port: config.port, host: config.host });

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    const drainMs = settings.shutdownDrainMs;
    running.app.log.info({ signal, drainMs }, 'shutting down: draining, then finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), drainMs + 10_000).unref();
    running
      .drain(drainMs)
      .then(() => running.close())
      .then(
        () => {
          clearTimeout(force);
          process.exit(0);
        },
        (err) => {
          running.app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  });
}
