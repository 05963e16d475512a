import { loadConfig, ConfigError } from './config.js';
import { buildApp } from './app.js';
import { seedDemoData } from './seed/demo-users.js';
import { seedDemoCatalogue } from './seed/demo-catalogue.js';
import { seedDemoClubs } from './seed/demo-clubs.js';
import { seedDemoMailbox } from './seed/demo-mailbox.js';
import { listenText, readyText } from './start-log.js';

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
  const app = await buildApp({ config });
  if (config.seedDemo && !config.production) await seedDemoData(app);
  await app.listen({ port: config.port, host: config.host, listenTextResolver: (address) => listenText(address, config.host) });
  // Payments demo data needs the server listening: the SDK reaches the sandbox over HTTP.
  if (config.seedDemo && !config.production) {
    const t0 = performance.now();
    await seedDemoCatalogue(app).then(
      ({ created }) => created > 0 && app.log.info(`demo data ready in ${Math.round(performance.now() - t0)} ms`),
      (err) => app.log.warn({ err: err instanceof Error ? err.message : err }, 'demo catalogue not created'),
    );
    await seedDemoClubs(app).catch((err) => app.log.warn({ err: err instanceof Error ? err.message : err }, 'demo clubs not created'));
    await seedDemoMailbox(app).catch((err) => app.log.warn({ err: err instanceof Error ? err.message : err }, 'demo mailbox not created'));
  }
  app.log.info(readyText({ publicUrl: config.publicUrl, database: app.database.kind, email: app.mailer.transport }));

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
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
