import { loadConfig, ConfigError } from './config.js';
import { buildApp } from './app.js';
import { seedDemoData } from './seed/demo-users.js';
import { seedDemoCourses } from './seed/demo-courses.js';
import { seedDemoPayments } from './seed/demo-payments.js';
import { seedDemoClubs } from './seed/demo-clubs.js';

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
  await app.listen({ port: config.port, host: config.host });
  // Payments demo data needs the server listening: the SDK reaches the sandbox over HTTP.
  if (config.seedDemo && !config.production) {
    await seedDemoPayments(app).catch((err) => app.log.warn({ err: err instanceof Error ? err.message : err }, 'demo payments not set up'));
    await seedDemoCourses(app).catch((err) => app.log.warn({ err: err instanceof Error ? err.message : err }, 'demo courses not created'));
    await seedDemoClubs(app).catch((err) => app.log.warn({ err: err instanceof Error ? err.message : err }, 'demo clubs not created'));
  }
  app.log.info(`Agora is ready at ${config.publicUrl} (database: ${app.database.kind}, email: ${app.mailer.transport})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Drain first: the requests in flight finish (in sandbox mode they call this very server
    // through the SDK, which close() would refuse), new ones answer 503; then close.
    app.log.info(`${signal} received: finishing the requests in flight, then closing`);
    await app.drain();
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
