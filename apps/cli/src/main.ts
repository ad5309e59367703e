import password from '@inquirer/password';
import {
  BatchDownloadResponse,
  BatchList,
  BatchStatusResponse,
  COPY_FORMATS,
  EnhanceKeywordsResponse,
  PLAN_NAMES,
  Profile,
  QuotaResponse,
  STRIP_MODES,
  SuggestKeywordsResponse,
  ValidateKeywordsResponse,
} from '@renamer/contracts';
import { Command, CommanderError, Option } from 'commander';
import { type AgainOptions, type AgainResult, renameAgain } from './again';
import { ApiClient } from './client';
import { completionScript, SHELLS } from './completion';
import { loadConnection, saveConnection } from './config';
import { downloadsTable, recentDownloads } from './downloads';
import { CliError, EXIT, errorLine } from './errors';
import { rename } from './rename';
import type { RenameResult } from './rename-result';
import { table } from './table';
import { undo } from './undo-manifest';
import { addWebhookCommands } from './webhooks';

const out = (text: string): void => {
  process.stdout.write(`${text}\n`);
};
const client = async () => new ApiClient(await loadConnection());

const program = new Command('renamer')
  .description('Search-engine-friendly names for your photos, through a Renamer server (API key).')
  .version('0.1.0')
  .showHelpAfterError('(run renamer --help for usage)')
  .exitOverride();

program
  .command('login')
  .description('store the server and an API key (asked for, or RENAMER_API_KEY) in your config folder, mode 0600')
  .requiredOption('--server <url>', 'the Renamer server, e.g. https://renamer.example')
  .action(async (options: { server: string }) => {
    const server = options.server.replace(/\/+$/, '');
    if (!/^https?:\/\//.test(server))
      throw new CliError(`--server must be an http(s) URL, not ${options.server}`, EXIT.usage);
    const apiKey =
      process.env.RENAMER_API_KEY ||
      (await password({ message: 'API key (make one on the Account page):', mask: '*' }, { output: process.stderr }));
    const me = await new ApiClient({ server, apiKey }).request('/api/auth/me', Profile);
    const path = await saveConnection({ server, apiKey });
    process.stderr.write(`signed in to ${server} as ${me.displayName}; stored in ${path}\n`);
  });

program
  .command('whoami')
  .description('the account, its plan and this month’s quota')
  .option('--json', 'one JSON document on stdout')
  .action(async (options: { json?: boolean }) => {
    const api = await client();
    const [me, quota] = await Promise.all([
      api.request('/api/auth/me', Profile),
      api.request('/api/auth/quota', QuotaResponse),
    ]);
    if (options.json) return out(JSON.stringify({ ...me, usage: quota, server: api.connection.server }));
    out(`${me.displayName} on ${api.connection.server}`);
    if (me.template) out(`default template: ${me.template}`);
    if (me.instructions) out(`default instructions: ${me.instructions}`);
    out(`${PLAN_NAMES[quota.plan]}: ${quota.used} of ${quota.quota} images used this month, ${quota.remaining} left`);
  });

/** What only an upload does, refused with --again (and --again's own options without it). */
const UPLOAD_ONLY = [
  'keywords',
  'context',
  'locale',
  'duplicates',
  'recursive',
  'approve',
  'embed',
  'strip',
  'out',
  'inPlace',
  'copyTo',
];
const AGAIN_ONLY = ['images', 'includeEdited'];
const flag = (name: string) => `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

program
  .command('rename')
  .description(
    'upload the images of folders or files (what the account already holds is not uploaded again), wait for their names, and deliver them; or, with --again BATCH, name a batch again',
  )
  .argument('[paths...]', 'folders and image files')
  .option('--keywords <list>', 'comma-separated keywords that lead the names')
  .option('--context <text>', 'what the photos show, in a sentence')
  .option('--locale <tag>', 'language of the names (BCP 47), e.g. de')
  .option('--template <template>', 'a naming template, e.g. "acme-{subject}-{seq:3}" (default: the account’s)')
  .option('--instructions <text>', 'instructions for the vision model, at most 500 characters (default: the account’s)')
  .option('--again <batch>', 'name an uploaded batch again (with the batch’s keywords, template and instructions)')
  .addOption(
    new Option(
      '--duplicates <mode>',
      'files the account already holds: refuse (skip them, the default) or allow (upload and name them again in a new batch)',
    ).choices(['refuse', 'allow']),
  )
  .option('--images <ids>', 'with --again: only these comma-separated image ids')
  .option('--include-edited', 'with --again: also the images a person renamed or approved')
  .option('-r, --recursive', 'look into subfolders too')
  .option('--approve', 'approve every name')
  .option('--embed', 'write title, alt text and keywords into the delivered files (with --out or --copy-to)')
  .addOption(
    new Option(
      '--strip <mode>',
      'metadata the delivered files lose (with --out or --copy-to): location (GPS and places) or all (but orientation and colour profile)',
    ).choices(STRIP_MODES),
  )
  .addOption(new Option('--out <zip>', 'write a ZIP of the renamed files').conflicts(['inPlace', 'copyTo']))
  .addOption(new Option('--in-place', 'rename the files where they are').conflicts(['copyTo']))
  .option('--copy-to <dir>', 'write renamed copies into a folder')
  .option('--dry-run', 'upload nothing and change nothing: say what would happen')
  .option(
    '--json',
    'one JSON document on stdout (schema/rename-result.schema.json; with --again, schema/rename-again-result.schema.json); progress on stderr',
  )
  .action(async (paths: string[], options: Parameters<typeof rename>[2] & AgainOptions & { again?: string }) => {
    if (options.again !== undefined) {
      const stray = UPLOAD_ONLY.filter((name) => options[name as keyof typeof options] !== undefined);
      if (paths.length > 0 || stray.length > 0) {
        throw new CliError(
          `--again names an uploaded batch again: ${paths.length > 0 ? 'give no paths' : `${stray.map(flag).join(', ')} only apply to an upload`}`,
          EXIT.usage,
        );
      }
      const again = await renameAgain(await client(), options.again, options);
      if (options.json) out(JSON.stringify(again, null, 2));
      else printAgainTable(again);
      process.exitCode = again.exitCode;
      return;
    }
    const stray = AGAIN_ONLY.filter((name) => options[name as keyof typeof options] !== undefined);
    if (stray.length > 0) throw new CliError(`${stray.map(flag).join(', ')} only apply with --again BATCH`, EXIT.usage);
    if (paths.length === 0) throw new CliError('give folders or image files to rename, or --again BATCH', EXIT.usage);
    const result = await rename(await client(), paths, options);
    if (options.json) out(JSON.stringify(result, null, 2));
    else printRenameTable(result);
    process.exitCode = result.exitCode;
  });

program
  .command('undo')
  .description('put back every name an earlier run changed (refusing files that changed since)')
  .argument('<manifest>', 'the .renamer-undo-<time>.json file the run wrote')
  .action(async (manifest: string) => {
    const outcome = await undo(manifest);
    for (const refused of outcome.refused)
      process.stderr.write(`renamer: ${refused.path} ${refused.why}: left as it is\n`);
    out(`${outcome.restored.length} restored, ${outcome.refused.length} refused`);
    if (outcome.refused.length > 0) process.exitCode = outcome.restored.length > 0 ? EXIT.partly : EXIT.failure;
  });

program
  .command('batches')
  .description('your batches, newest first')
  .option('--json', 'one JSON document on stdout')
  .action(async (options: { json?: boolean }) => {
    const { items } = await (await client()).request('/api/batch?limit=100', BatchList);
    if (options.json) return out(JSON.stringify(items, null, 2));
    out(
      table(
        ['batch', 'name', 'status', 'done', 'created'],
        items.map((batch) => [
          batch.batchId,
          batch.name ?? '',
          batch.status,
          `${batch.processed}/${batch.total}`,
          batch.createdAt,
        ]),
      ),
    );
  });

program
  .command('status')
  .description('one batch’s progress')
  .argument('<batch>', 'the batch id')
  .option('--json', 'one JSON document on stdout')
  .action(async (batchId: string, options: { json?: boolean }) => {
    const status = await (await client()).request(
      `/api/batch/${encodeURIComponent(batchId)}/status`,
      BatchStatusResponse,
    );
    if (options.json) return out(JSON.stringify(status, null, 2));
    const { counts } = status;
    out(`${status.batchId} ${status.status}: ${status.processed} of ${status.total} done`);
    out(
      `ready ${counts.ready}, approved ${counts.approved}, queued ${counts.queued}, processing ${counts.processing}, failed ${counts.failed}, cancelled ${counts.cancelled}`,
    );
    if (status.template) out(`template: ${status.template}`);
    if (status.instructions) out(`instructions: ${status.instructions}`);
  });

program
  .command('download')
  .description('download a batch as a ZIP of its renamed images')
  .argument('<batch>', 'the batch id')
  .option('--approved-only', 'only approved images')
  .option('--embed', 'write title, alt text and keywords into each copy')
  .option('--manifest', 'add the rename kit (manifest.csv)')
  .option('--base-url <url>', 'with --manifest: where the images are online today, for the redirect maps')
  .addOption(
    new Option(
      '--strip <mode>',
      'metadata the copies lose: location (GPS and places) or all (but orientation and colour profile)',
    ).choices(STRIP_MODES),
  )
  .option('--resize <px>', 'web-ready copies: at most this many pixels on the long side (16..10000, never enlarged)')
  .addOption(new Option('--format <format>', 'web-ready copies in this format').choices(COPY_FORMATS))
  .option('--quality <1-100>', 'web-ready copies: the encoder quality')
  .option('-o, --out <file>', 'where to write it (default: <batch>.zip)')
  .action(
    async (
      batchId: string,
      options: {
        approvedOnly?: boolean;
        embed?: boolean;
        manifest?: boolean;
        baseUrl?: string;
        strip?: string;
        resize?: string;
        format?: string;
        quality?: string;
        out?: string;
      },
    ) => {
      const api = await client();
      const query = new URLSearchParams();
      if (options.approvedOnly) query.set('approvedOnly', 'true');
      if (options.embed) query.set('embed', 'true');
      if (options.manifest) query.set('manifest', 'true');
      if (options.baseUrl) query.set('baseUrl', options.baseUrl);
      // The server checks the values (400 validation_failed with the field named).
      for (const name of ['strip', 'resize', 'format', 'quality'] as const) {
        const value = options[name];
        if (value !== undefined) query.set(name, value);
      }
      const link = await api.request(
        `/api/batch/${encodeURIComponent(batchId)}/download?${query}`,
        BatchDownloadResponse,
        {
          method: 'POST',
        },
      );
      const path = options.out ?? `${batchId}.zip`;
      await api.download(link.url, path);
      process.stderr.write(`wrote ${path} (${link.entries} images)\n`);
    },
  );

addWebhookCommands(program, client);

program
  .command('downloads')
  .description('your downloads, newest first: what each held, the bytes sent, whether every byte went out, how')
  .option('--limit <n>', 'at most this many (1..100, default 50)')
  .option('--json', 'one JSON document on stdout (the API’s download objects)')
  .action(async (options: { limit?: string; json?: boolean }) => {
    const items = await recentDownloads(await client(), options.limit);
    if (options.json) return out(JSON.stringify(items, null, 2));
    out(items.length === 0 ? 'no downloads yet' : downloadsTable(items));
  });

const keywords = program.command('keywords').description('keyword help for SEO');
keywords
  .command('enhance')
  .description('long-tail phrases, related terms and categories for keywords')
  .argument('<keywords...>')
  .option('--context <text>')
  .option('--locale <tag>')
  .action(async (list: string[], options: { context?: string; locale?: string }) => {
    const result = await (await client()).request('/api/keywords/enhance', EnhanceKeywordsResponse, {
      method: 'POST',
      json: { keywords: list, ...options },
    });
    out(JSON.stringify(result, null, 2));
  });
keywords
  .command('suggest')
  .description('keywords for an image (--image) or a text (--text)')
  .addOption(new Option('--image <id>', 'an image id').conflicts('text'))
  .option('--text <text>', 'a description')
  .option('--locale <tag>')
  .action(async (options: { image?: string; text?: string; locale?: string }) => {
    if (!options.image && !options.text) throw new CliError('give --image <id> or --text <text>', EXIT.usage);
    const body = options.image ? { imageId: options.image } : { text: options.text, locale: options.locale };
    const { suggestions } = await (await client()).request('/api/keywords/suggest', SuggestKeywordsResponse, {
      method: 'POST',
      json: body,
    });
    out(suggestions.join('\n'));
  });
keywords
  .command('validate')
  .description('whether each keyword is usable, its normal form, and why not')
  .argument('<keywords...>')
  .option('--locale <tag>')
  .action(async (list: string[], options: { locale?: string }) => {
    const { results } = await (await client()).request('/api/keywords/validate', ValidateKeywordsResponse, {
      method: 'POST',
      json: { keywords: list, ...options },
    });
    out(
      table(
        ['keyword', 'valid', 'normalised', 'issues'],
        results.map((r) => [r.keyword, r.valid ? 'yes' : 'no', r.normalized, r.issues.join(' ')]),
      ),
    );
    if (results.some((result) => !result.valid)) process.exitCode = EXIT.partly;
  });

program
  .command('completion')
  .description('a shell completion script: renamer completion bash >> ~/.bashrc')
  .addArgument(new Command().createArgument('<shell>', SHELLS.join(', ')).choices(SHELLS))
  .action((shell: (typeof SHELLS)[number]) => out(completionScript(program, shell)));

function printRenameTable(result: RenameResult) {
  out(
    table(
      ['file', 'new name', 'score', 'outcome'],
      result.files.map((file) => [
        file.originalName,
        file.newName ?? '—',
        file.score === null ? '' : String(file.score),
        file.problem ? `${file.outcome}: ${file.problem.detail}` : file.outcome.replace('_', ' '),
      ]),
    ),
  );
  const parts = [`${result.uploaded} uploaded`, `${result.alreadyUploaded} already in the account`];
  if (result.notRenamed > 0) parts.push(`${result.notRenamed} not renamed`);
  if (result.archive) parts.push(`archive ${result.archive}`);
  if (result.undoManifest) parts.push(`undo: renamer undo ${result.undoManifest}`);
  out(parts.join('; '));
}

function printAgainTable(result: AgainResult) {
  if (result.changes.length > 0) {
    out(
      table(
        ['file', 'name', result.dryRun ? 'would become' : 'new name'],
        result.changes.map((change) => [change.originalName, change.from, change.to]),
      ),
    );
  }
  const changed = `${result.changes.length} ${result.changes.length === 1 ? 'name' : 'names'}`;
  out(
    result.dryRun
      ? `${changed} would change, ${result.unchanged} would stay (dry run: nothing changed)`
      : `${changed} changed, ${result.unchanged} kept; batch ${result.batchId} ${result.status}`,
  );
}

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version are exit 0; commander has printed its own message for the rest.
    process.exitCode = error.exitCode === 0 ? EXIT.done : EXIT.usage;
  } else {
    process.stderr.write(`${errorLine(error)}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : EXIT.failure;
  }
}
