import { defineConfig } from 'tsup';

/**
 * Each service bundles to `dist/server.js`, and its operator commands (`src/commands/*.ts`) beside it. Workspace packages are inlined; every npm package stays external
 * (`skipNodeModulesBundle`) and is installed beside the bundle by `pnpm deploy`, so packages that find their own
 * files at run time (tesseract.js, the model weights, exiftool, libheif's WASM) work as they do from source, and
 * no CommonJS package ends up inside an ES module. docs/operations.md says why.
 */
export default defineConfig({
  entry: ['src/server.ts', 'src/commands/*.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  skipNodeModulesBundle: true,
  // stopwords-iso ships JSON, which Node 20.9 imports only with an import attribute esbuild does not keep: inline it.
  noExternal: [/^@renamer\//, /^stopwords-iso\//],
});
