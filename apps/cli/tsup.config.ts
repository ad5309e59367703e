import { defineConfig } from 'tsup';

/**
 * One self-contained file, `dist/renamer.js`: every dependency inlined (commander, ws, yazl, zod and the
 * contracts), so the packed tarball runs with `npx` on a machine without the repository and without an install.
 */
export default defineConfig({
  entry: { renamer: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  noExternal: [/.*/],
  // ws asks for these optional speed-ups and carries on without them.
  external: ['bufferutil', 'utf-8-validate'],
  banner: {
    // Under a name of its own: bundled modules import createRequire themselves (the domain's word list does).
    js: "#!/usr/bin/env node\nimport { createRequire as __bannerCreateRequire } from 'node:module'; const require = __bannerCreateRequire(import.meta.url);",
  },
});
