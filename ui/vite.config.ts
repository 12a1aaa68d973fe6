// The board's build. `bin/ui-build.js` runs it into `.build/ui` whenever a file under ui/ is newer
// than the last build, so the server never serves a board older than its sources.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    target: 'es2022',
    // Each page is its own chunk (React.lazy in app/routes.tsx); the first screen loads only the shell.
    chunkSizeWarningLimit: 400,
    reportCompressedSize: false,
  },
  server: {
    // `npm run ui:dev`: the board with hot reload against a server on the default port.
    proxy: { '/api': { target: process.env.BOARDROOM_URL ?? 'http://127.0.0.1:3100', changeOrigin: false } },
  },
});
