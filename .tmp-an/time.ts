import { openDatabase } from '../src/server/db/client.js';
import { getAnalytics } from '../src/server/analytics/analytics-service.js';
async function main() {
  const d = await openDatabase({ url: process.env.DATABASE_URL!, dataDir: '/tmp/an-seed', poolSize: 4 });
  const { rows } = (await (d.db as any).$client.query(`select id from "user" where email = 'big@agora.test'`)) as any;
  const id = rows[0].id;
  const app = { database: d } as any;
  const viewer = { user: { id } } as any;
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 364 * 86400000).toISOString().slice(0, 10);
  for (let i = 0; i < 8; i++) {
    const t = performance.now();
    const r = await getAnalytics(app, viewer, id, { from, to: today });
    console.log((performance.now() - t).toFixed(1), 'ms', r.figures.enrolments, r.revenue.map((x) => x.currency + ':' + x.current.net).join(' '));
  }
  await d.close();
}
main();
