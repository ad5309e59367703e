// The import rules of docs/architecture.md ("The package map"), checked by `npm run lint:deps` and by
// test/dependency-rules.test.ts (so `npm test` fails when an import breaks them). Type-only imports count.

/** Which of our packages each package's source may import; the list is the whole of what it may see. */
const ALLOWED = {
  contracts: [],
  storage: [],
  telemetry: [],
  domain: ['contracts'],
  db: ['contracts', 'domain'],
  imaging: ['contracts'],
  keywords: ['contracts'],
  llm: ['contracts', 'vision'],
  delivery: ['contracts'],
  vision: ['contracts', 'domain'],
  billing: ['contracts', 'db'],
  runtime: ['contracts', 'db', 'storage', 'telemetry'],
  http: ['contracts', 'runtime', 'telemetry'],
  progress: ['contracts', 'db', 'domain', 'runtime'],
  jobs: ['contracts', 'db', 'domain', 'progress', 'runtime', 'storage', 'telemetry'],
  auth: ['contracts', 'db', 'http', 'runtime'],
  accounts: ['contracts', 'db', 'domain', 'runtime', 'storage'],
  webhooks: ['contracts'],
};

const FASTIFY = 'node_modules/(@fastify/|fastify)';

const packageRules = Object.entries(ALLOWED).map(([name, allowed]) => ({
  name: `${name}-imports`,
  comment: `packages/${name} may import only ${allowed.length ? allowed.join(', ') : 'none of our packages'}`,
  severity: 'error',
  from: { path: `^packages/${name}/src/` },
  to: { path: '^packages/[^/]+/', pathNot: `^packages/(${[name, ...allowed].join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...packageRules,
    {
      name: 'no-unlisted-package',
      comment: 'every package has its entry in ALLOWED (.dependency-cruiser.cjs) and docs/architecture.md',
      severity: 'error',
      from: { path: '^packages/', pathNot: `^packages/(${Object.keys(ALLOWED).join('|')})/` },
      to: {},
    },
    {
      name: 'packages-never-import-apps',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-never-import-each-other',
      comment: "an app's source imports packages, never another app (tests may boot one)",
      severity: 'error',
      from: { path: '^apps/([^/]+)/src/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'fastify-only-in-http-layers',
      comment:
        'Fastify stays in @renamer/http, @renamer/auth and the HTTP apps; runtime, jobs and progress are free of it ' +
        "(telemetry's register hook loads Fastify's instrumentation, not Fastify)",
      severity: 'error',
      from: { path: '^packages/', pathNot: '^packages/(http|auth)/|^packages/telemetry/src/register\\.mjs$' },
      to: { path: FASTIFY },
    },
    {
      name: 'pure-domain',
      comment: 'domain and contracts do no I/O: no Node built-in but crypto and module',
      severity: 'error',
      from: { path: '^packages/(domain|contracts)/src/' },
      to: { dependencyTypes: ['core'], pathNot: '^(node:)?(crypto|module)$' },
    },
    {
      name: 'admin-routes-through-services',
      comment: 'admin API routes call services: the database, Stripe and BullMQ stay behind them',
      severity: 'error',
      from: { path: '^apps/admin-api/src/routes/' },
      to: { path: '^packages/db/|node_modules/(stripe|bullmq)/' },
    },
    {
      name: 'upload-service-takes-plain-files',
      comment: 'the routes turn multipart parts into files; services never see the parser',
      severity: 'error',
      from: { path: '^apps/api/src/services/' },
      to: { path: 'node_modules/@fastify/multipart/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(apps|packages)/[^/]+/dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
    },
  },
};
