import { defineConfig } from 'tsup';

/** Each service bundles to one `dist/server.js`; workspace packages are inlined, npm packages stay external. */
export default defineConfig({
  entry: ['src/server.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: [/^@renamer\//],
  // CommonJS dependencies of inlined packages call require(); give the ESM bundle one.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
});
