import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const BUILD_ID = process.env.AGORA_BUILD_ID ?? `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;

/** Writes build.json so the server can tell clients which build is deployed. */
function buildInfo(): Plugin {
  return {
    name: 'agora-build-info',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'build.json', source: JSON.stringify({ buildId: BUILD_ID }) });
    },
  };
}

export default defineConfig(({ command }) => ({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), buildInfo()],
  // The import aliases tsconfig.json declares (paths), for the bundler too.
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
      '@web': fileURLToPath(new URL('./src/web', import.meta.url)),
    },
  },
  define: { __BUILD_ID__: JSON.stringify(command === 'build' ? BUILD_ID : 'dev') },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // Every browser of the es2022 target but Safari 16 preloads modules natively (Safari 16
    // only loads them later): the polyfill is not worth its bytes in every page's first script.
    modulePreload: { polyfill: false },
    // Fewer, larger chunks (decision 0030): the small common chunks (an icon, a button, a
    // helper: 30 to 50 per page) are inlined into the chunks that use them. Each page's first
    // load then asks for about 9 files instead of 15 to 47, where every request on a phone
    // costs a round trip; the bytes stay about the same (/login's budget: 130 kB gzipped).
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: { codeSplitting: { experimentalInlineCommonChunks: { maxSize: 16_000 } } },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api/realtime': { target: 'ws://localhost:3000', ws: true },
      '/api': 'http://localhost:3000',
      '/uploads': 'http://localhost:3000',
      '/sandbox': 'http://localhost:3000',
    },
  },
}));
