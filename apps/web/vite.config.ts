import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The API serves the built files from `dist/` (one origin: cookies, CSRF and the WebSocket just work). `vite` (the
 * dev server, for work on the client) proxies `/api` to the API on its usual port.
 */
export default defineConfig(({ command }) => ({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  // A build is always production React, whatever NODE_ENV the process that runs it has (npm start, the tests).
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', ws: true } },
  },
}));
