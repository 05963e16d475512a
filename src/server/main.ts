import { loadConfig, ConfigError } from './config.js';
import { buildApp } from './app.js';
import { keepSeedingDemo, seedDemoUsers } from './seed/demo-seed.js';
import { listenText, readyText } from './start-log.js';
import { startTracing } from './metrics/tracing.js';

/** Starts the server: configuration checked once, then the app, then demo data. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // Only with OTEL_EXPORTER_OTLP_ENDPOINT: otherwise the SDK is never loaded (a dynamic import).
  const tracing = config.otel ? await startTracing(config.otel) : undefined;
  const app = await buildApp({ config, tracing });
  const demo = config.seedDemo && !config.production;
  // The demo accounts exist when the server answers; a failure here is retried below.
  if (demo)
    await seedDemoUsers(app).catch((err) =>
      app.log.warn({ err: err instanceof Error ? err.message : err }, 'demo accounts not created yet; trying again after start'),
    );
  await app.listen({ port: config.port, host: config.host, listenTextResolver: (address) => listenText(address, config.host) });
  // Signals are heard from here on: a stop during the demo's making drains as any other.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Drain first: the requests in flight finish (in sandbox mode they call this very server
    // through the SDK, which close() would refuse), new ones answer 503; then close.
    app.log.info(`${signal} received: finishing the requests in flight, then closing`);
    // Behind a load balancer (SHUTDOWN_DELAY_MS): new requests and health checks answer 503
    // for a while, so the balancer takes this instance out (and retries what it refused)
    // before the port closes under a request it just sent.
    await Promise.all([app.drain(), new Promise((r) => setTimeout(r, config.shutdownDelayMs))]);
    // A loaded balancer may take longer to notice: the port stays open while it still sends
    // requests here (each refused with 503, which it retries elsewhere), until a second passes
    // without one (at most 20 s more, within the 30 s a container is given to stop).
    if (config.shutdownDelayMs > 0) await app.untilUnsent(1000, 20_000);
    await app.close();
    // The spans still batched go to the collector before the process ends.
    await tracing?.shutdown().catch((err) => app.log.warn({ err: err instanceof Error ? err.message : err }, 'traces not flushed'));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // The rest of the demo needs the server listening (the SDK reaches the payments sandbox over
  // HTTP). One instance makes it (an advisory lock); an attempt cut short (a lost database) is
  // made again until the demo is complete (seed/demo-seed.ts). The first attempt is waited
  // for, so the ready line follows the demo; retries go on in the background.
  if (demo) {
    const seeding = keepSeedingDemo(app, { stopped: () => stopping });
    await Promise.race([seeding, new Promise((resolve) => setTimeout(resolve, 120_000).unref())]);
  }
  app.log.info(readyText({ publicUrl: config.publicUrl, database: app.database.kind, email: app.mailer.transport }));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
