import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The API serves the built files from `dist/` (one origin: cookies, CSRF and the WebSocket just work). `vite` (the
 * dev server, for work on the client) proxies `/api` to the API on its usual port.
 */
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', ws: true } },
  },
});
