/**
 * The entry: React DOM (most of the first script's code) is evaluated here, the app (queries,
 * router, the first render) in app/start.tsx, a chunk the server preloads with every page
 * (src/server/pages/routes.ts). Loaded by a dynamic import, it evaluates in a task of its own:
 * two shorter tasks instead of one long one before the page can answer input (decision 0032).
 */
import 'react-dom/client';
import './styles.css';

void import('./app/start');
