import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiStack, photo, startApiStack } from '@renamer/api/testing';
import { testDir } from '@renamer/runtime/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RenameResult } from '../apps/cli/src/rename-result';

/** The `renamer` CLI, as its bundle runs after `npm test` or `npm start`, against a real API and worker. */

const CLI_DIR = fileURLToPath(new URL('../apps/cli', import.meta.url));
const CLI = join(CLI_DIR, 'dist/renamer.js');
const TSUP = fileURLToPath(new URL('../node_modules/tsup/dist/cli-default.js', import.meta.url));
const PHOTOS = fileURLToPath(new URL('../fixtures/photos', import.meta.url));
const SCHEMA = JSON.parse(readFileSync(join(CLI_DIR, 'schema/rename-result.schema.json'), 'utf8'));
const AGAIN_SCHEMA = JSON.parse(readFileSync(join(CLI_DIR, 'schema/rename-again-result.schema.json'), 'utf8'));

let stack: ApiStack;
let apiUrl: string;

beforeAll(async () => {
  // What the bootstrap does before `npm test`, for a run of this file alone.
  execFileSync(process.execPath, [TSUP, '--silent'], { cwd: CLI_DIR, stdio: 'inherit' });
  stack = await startApiStack('cli');
  apiUrl = (await stack.startApi()).url;
  await stack.startWorker();
}, 120_000);
afterAll(() => stack?.close());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with a key (and a config folder of its own); resolves when it exits. */
function renamer(args: string[], env: Record<string, string>, onStart?: (child: ChildProcess) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH!, RENAMER_SERVER: apiUrl, XDG_CONFIG_HOME: testDir('cli-config'), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    onStart?.(child);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** This month's images counted against the key's account. */
async function imagesUsed(key: string): Promise<number> {
  const response = await fetch(`${apiUrl}/api/auth/quota`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as { used: number }).used;
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const visible = (folder: string) =>
  readdirSync(folder)
    .filter((name) => !name.startsWith('.'))
    .sort();

/** A folder of photos named as a camera names them, plus a hidden file and a text file that are not images. */
function cameraFolder(name: string, photos: Buffer[]): string {
  const folder = join(testDir('cli-photos'), name);
  mkdirSync(folder, { recursive: true });
  for (const [index, bytes] of photos.entries()) {
    writeFileSync(join(folder, `IMG_${String(index + 1).padStart(4, '0')}.JPG`), bytes);
  }
  writeFileSync(join(folder, '.thumbnail.jpg'), photos[0]!);
  writeFileSync(join(folder, 'notes.txt'), 'not a photo');
  return folder;
}
const fixturePhotos = (names: string[]) => names.map((name) => readFileSync(join(PHOTOS, name)));
const syntheticPhotos = (seeds: number[]) => Promise.all(seeds.map((seed) => photo('jpeg', seed)));

function renameResult(run: Run) {
  const validate = new Ajv2020({ strict: false }).compile(SCHEMA);
  const document = JSON.parse(run.stdout);
  expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
  return document as RenameResult;
}

describe('renamer rename', () => {
  it('renames a folder of real photos into a ZIP whose entries are the original bytes under the new names; a second run uploads nothing and gives the same result', async () => {
    const { key } = await stack.createUser({ quota: 50 });
    const folder = cameraFolder('zip', fixturePhotos(['bridge.jpg', 'colorful-cups.jpg', 'dragonfly.jpg']));
    const zip = join(testDir('cli-out'), 'renamed.zip');

    const first = await renamer(['rename', folder, '--keywords', 'nature photo', '--out', zip, '--json'], {
      RENAMER_API_KEY: key,
    });
    expect(first.code, first.stderr).toBe(0);
    const result = renameResult(first);
    expect(result).toMatchObject({ uploaded: 3, alreadyUploaded: 0, notRenamed: 0, archive: zip });
    expect(result.files.map((file) => file.originalName)).toEqual(['IMG_0001.JPG', 'IMG_0002.JPG', 'IMG_0003.JPG']);
    for (const file of result.files) expect(file.newName).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*\.jpg$/);

    const entries = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(entries).toEqual(result.files.map((file) => file.deliveredAs).sort());
    for (const file of result.files) {
      const bytes = execFileSync('unzip', ['-p', zip, file.deliveredAs!], { maxBuffer: 16 * 2 ** 20 });
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256(file.path));
    }
    // People read a table on stdout and progress on stderr.
    const table = await renamer(['rename', folder], { RENAMER_API_KEY: key });
    expect(table.code).toBe(0);
    for (const file of result.files) expect(table.stdout).toContain(file.newName!);
    expect(table.stdout).toContain('0 uploaded; 3 already in the account');

    const second = renameResult(await renamer(['rename', folder, '--json'], { RENAMER_API_KEY: key }));
    expect(second).toMatchObject({ uploaded: 0, alreadyUploaded: 3 });
    expect(second.files.map((file) => file.newName)).toEqual(result.files.map((file) => file.newName));
    expect(await imagesUsed(key)).toBe(3);
  }, 120_000);

  it('renames files in place without overwriting any, and undo puts every name and byte back, refusing a file changed since', async () => {
    const { key } = await stack.createUser({ quota: 50 });
    const folder = cameraFolder('in-place', await syntheticPhotos([701, 702, 703]));
    const before = new Map(visible(folder).map((name) => [name, sha256(join(folder, name))]));

    const run = await renamer(['rename', folder, '--in-place', '--keywords', 'red shoes', '--json'], {
      RENAMER_API_KEY: key,
    });
    expect(run.code, run.stderr).toBe(0);
    const result = renameResult(run);
    const renamedNames = result.files.map((file) => file.newName!).sort();
    expect(visible(folder)).toEqual([...renamedNames, 'notes.txt'].sort());
    expect(result.undoManifest).toMatch(/\/\.renamer-undo-.*\.json$/);

    const undone = await renamer(['undo', result.undoManifest!], { RENAMER_API_KEY: key });
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain('3 restored, 0 refused');
    expect(new Map(visible(folder).map((name) => [name, sha256(join(folder, name))]))).toEqual(before);
    expect(existsSync(result.undoManifest!)).toBe(false);

    // Again, then one file is edited before the undo: it stays as it is, the others go back.
    const again = renameResult(await renamer(['rename', folder, '--in-place', '--json'], { RENAMER_API_KEY: key }));
    const edited = again.files[0]!.deliveredAs!;
    writeFileSync(edited, Buffer.concat([readFileSync(edited), Buffer.from('edited')]));
    const partly = await renamer(['undo', again.undoManifest!], { RENAMER_API_KEY: key });
    expect(partly.code).toBe(3);
    expect(partly.stderr).toContain('changed since the run');
    expect(existsSync(edited)).toBe(true);
    expect(visible(folder)).toContain('IMG_0002.JPG');
  }, 120_000);

  it('picks up an interrupted run: the batch it started is followed, nothing is uploaded or counted twice', async () => {
    const { key } = await stack.createUser({ quota: 50 });
    const folder = cameraFolder('resume', await syntheticPhotos([711, 712, 713, 714]));
    const state = join(folder, '.renamer-state.json');

    const interrupted = await renamer(['rename', folder, '--json'], { RENAMER_API_KEY: key }, (child) => {
      const poll = setInterval(() => {
        if (!existsSync(state)) return;
        clearInterval(poll);
        child.kill('SIGINT');
      }, 5);
    });
    expect(interrupted.code).not.toBe(0);
    expect(existsSync(state)).toBe(true);

    const resumed = await renamer(['rename', folder, '--json'], { RENAMER_API_KEY: key });
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    const result = renameResult(resumed);
    expect(result).toMatchObject({ uploaded: 0, alreadyUploaded: 4, notRenamed: 0 });
    for (const file of result.files) expect(file.newName).toMatch(/\.jpg$/);
    expect(existsSync(state)).toBe(false);
    expect(await imagesUsed(key)).toBe(4);
  }, 120_000);

  it('writes approved copies with their metadata embedded into another folder, after a dry run that changed nothing', async () => {
    const { key } = await stack.createUser({ quota: 50 });
    const folder = cameraFolder('copies', await syntheticPhotos([731, 732]));
    const copies = join(testDir('cli-out'), 'copies');

    const dry = renameResult(
      await renamer(['rename', folder, '--dry-run', '--copy-to', copies, '--json'], { RENAMER_API_KEY: key }),
    );
    expect(dry.files.map((file) => file.outcome)).toEqual(['would_upload', 'would_upload']);
    expect(await imagesUsed(key)).toBe(0);
    expect(existsSync(copies)).toBe(false);

    const run = await renamer(
      ['rename', folder, '--copy-to', copies, '--embed', '--approve', '--keywords', 'blue vase', '--json'],
      {
        RENAMER_API_KEY: key,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const result = renameResult(run);
    expect(result.files.map((file) => file.status)).toEqual(['approved', 'approved']);
    expect(visible(copies)).toEqual(result.files.map((file) => file.newName!).sort());
    for (const file of result.files) {
      const copy = readFileSync(file.deliveredAs!);
      // The copy carries the title in its XMP; the original is untouched.
      expect(copy.includes(Buffer.from('blue vase'))).toBe(true);
      expect(readFileSync(file.path).includes(Buffer.from('blue vase'))).toBe(false);
    }
    expect(result.undoManifest).toContain(copies);
    expect((await renamer(['undo', result.undoManifest!], {})).code).toBe(0);
    expect(visible(copies)).toEqual([]);
  }, 120_000);

  it('uploads what fits in the remaining quota, says what did not, and exits 3', async () => {
    const { key } = await stack.createUser({ quota: 2 });
    const folder = cameraFolder('quota', await syntheticPhotos([721, 722, 723, 724]));
    const run = await renamer(['rename', folder, '--json'], { RENAMER_API_KEY: key });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('2 of 4 new images do not fit in the 2 left this month');
    const result = renameResult(run);
    expect(result).toMatchObject({ uploaded: 2, notRenamed: 2, exitCode: 3 });
    expect(result.files.filter((file) => file.outcome === 'over_quota')).toHaveLength(2);
  }, 120_000);

  it('with --duplicates allow uploads again what the account holds, as new images of a new batch counted against the quota', async () => {
    const { key } = await stack.createUser({ quota: 50 });
    const folder = cameraFolder('again', await syntheticPhotos([741, 742]));
    const first = renameResult(await renamer(['rename', folder, '--json'], { RENAMER_API_KEY: key }));
    expect(first).toMatchObject({ uploaded: 2, alreadyUploaded: 0 });
    expect(await imagesUsed(key)).toBe(2);

    const dry = renameResult(
      await renamer(['rename', folder, '--duplicates', 'allow', '--dry-run', '--json'], { RENAMER_API_KEY: key }),
    );
    expect(dry.files.map((file) => file.outcome)).toEqual(['would_upload', 'would_upload']);
    expect(await imagesUsed(key)).toBe(2);

    const run = await renamer(['rename', folder, '--duplicates', 'allow', '--json'], { RENAMER_API_KEY: key });
    expect(run.code, run.stderr).toBe(0);
    const again = renameResult(run);
    expect(again).toMatchObject({ uploaded: 2, alreadyUploaded: 0, notRenamed: 0 });
    expect(again.batches).toHaveLength(1);
    expect(first.batches).not.toContain(again.batches[0]);
    for (const [index, file] of again.files.entries()) {
      expect(file.batchId).toBe(again.batches[0]);
      expect(file.imageId).not.toBe(first.files[index]!.imageId);
      expect(file.newName).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*\.jpg$/);
    }
    expect(await imagesUsed(key)).toBe(4);

    // Without the flag the account's images are used, as before; a mode it does not know is a usage mistake.
    expect(renameResult(await renamer(['rename', folder, '--json'], { RENAMER_API_KEY: key }))).toMatchObject({
      uploaded: 0,
      alreadyUploaded: 2,
    });
    const wrong = await renamer(['rename', folder, '--duplicates', 'sometimes'], { RENAMER_API_KEY: key });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('refuse, allow');
    expect(await imagesUsed(key)).toBe(4);
  }, 120_000);

  it('picks up an interrupted --duplicates allow run without uploading its files a third time', async () => {
    const { key } = await stack.createUser({ quota: 50 });
    const folder = cameraFolder('again-resume', await syntheticPhotos([751, 752, 753]));
    const state = join(folder, '.renamer-state.json');
    const first = renameResult(await renamer(['rename', folder, '--json'], { RENAMER_API_KEY: key }));
    expect(first).toMatchObject({ uploaded: 3 });

    const interrupted = await renamer(
      ['rename', folder, '--duplicates', 'allow', '--json'],
      { RENAMER_API_KEY: key },
      (child) => {
        const poll = setInterval(() => {
          if (!existsSync(state)) return;
          clearInterval(poll);
          child.kill('SIGINT');
        }, 5);
      },
    );
    expect(interrupted.code).not.toBe(0);
    expect(existsSync(state)).toBe(true);
    expect(await imagesUsed(key)).toBe(6);

    const resumed = await renamer(['rename', folder, '--duplicates', 'allow', '--json'], { RENAMER_API_KEY: key });
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    const result = renameResult(resumed);
    expect(result).toMatchObject({ uploaded: 0, alreadyUploaded: 3, notRenamed: 0 });
    // The files point at the images the interrupted run made, in its batch.
    expect(new Set(result.files.map((file) => file.batchId)).size).toBe(1);
    expect(result.batches).toHaveLength(1);
    expect(first.batches).not.toContain(result.batches[0]);
    expect(existsSync(state)).toBe(false);
    expect(await imagesUsed(key)).toBe(6);
  }, 120_000);

  it('answers a wrong key with one clear line and exit code 1, and a usage mistake with exit code 2', async () => {
    const wrong = await renamer(['whoami'], { RENAMER_API_KEY: 'rn_not-a-real-key' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/^renamer: .+ \(unauthenticated\)$/m);

    const usage = await renamer(['rename', testDir('cli-photos'), '--in-place', '--copy-to', '/tmp/x'], {
      RENAMER_API_KEY: 'rn_whatever',
    });
    expect(usage.code).toBe(2);
    expect((await renamer(['frobnicate'], {})).code).toBe(2);
  });
});

describe('renamer rename with a naming template, and --again', () => {
  /** The names of a batch's images on the server, by original file name. */
  async function serverNames(key: string, batchId: string): Promise<Record<string, string>> {
    const response = await fetch(`${apiUrl}/api/image/batch/${batchId}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const { items } = (await response.json()) as { items: { originalFilename: string; filename: string }[] };
    return Object.fromEntries(items.map((image) => [image.originalFilename, image.filename]));
  }

  it('names an upload with --template (and keeps --instructions on the batch), refuses an unknown token with the server’s detail, then names the batch again: a dry run that changes nothing, the images chosen, and the rest', async () => {
    const { key } = await stack.createUser({ quota: 50 });
    const env = { RENAMER_API_KEY: key };
    const folder = cameraFolder('template', await syntheticPhotos([761, 762]));
    const run = await renamer(
      ['rename', folder, '--template', 'acme-{subject}-{seq:2}', '--instructions', 'mention the colour', '--json'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const uploaded = renameResult(run);
    expect(uploaded.files.map((file) => file.newName)).toEqual([
      expect.stringMatching(/^acme-[a-z0-9-]+-01\.jpg$/),
      expect.stringMatching(/^acme-[a-z0-9-]+-02\.jpg$/),
    ]);
    const [batchId] = uploaded.batches;
    const status = JSON.parse((await renamer(['status', batchId!, '--json'], env)).stdout);
    expect(status).toMatchObject({ template: 'acme-{subject}-{seq:2}', instructions: 'mention the colour' });

    const refused = await renamer(
      ['rename', cameraFolder('bad-template', await syntheticPhotos([763])), '--template', '{colour}-shoes'],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^renamer: .*colour.* \(invalid_template\)$/m);
    expect(await imagesUsed(key)).toBe(2);

    // The first image named again under a new template (saved on the batch): the second keeps its name.
    const [first, second] = uploaded.files;
    const one = await renamer(
      ['rename', '--again', batchId!, '--images', first!.imageId!, '--template', 'shop-{subject}'],
      env,
    );
    expect(one.code, one.stderr).toBe(0);
    let names = await serverNames(key, batchId!);
    expect(names['IMG_0001.JPG']).toMatch(/^shop-/);
    expect(names['IMG_0002.JPG']).toBe(second!.newName);
    expect(one.stdout).toContain(`IMG_0001.JPG  ${first!.newName}  ${names['IMG_0001.JPG']}`);
    expect(one.stdout).toContain('1 name changed, 0 kept');

    // A dry run says what the rest of the batch would become, and changes nothing.
    const dry = await renamer(['rename', '--again', batchId!, '--dry-run', '--json'], env);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout);
    const validate = new Ajv2020({ strict: false }).compile(AGAIN_SCHEMA);
    expect(validate(plan), JSON.stringify(validate.errors)).toBe(true);
    expect(plan).toMatchObject({
      batchId,
      dryRun: true,
      changes: [
        {
          imageId: second!.imageId,
          originalName: 'IMG_0002.JPG',
          from: second!.newName,
          to: expect.stringMatching(/^shop-/),
        },
      ],
      unchanged: 1,
    });
    expect(await serverNames(key, batchId!)).toEqual(names);

    const rest = await renamer(['rename', '--again', batchId!], env);
    expect(rest.code, rest.stderr).toBe(0);
    names = await serverNames(key, batchId!);
    expect(names['IMG_0002.JPG']).toBe(plan.changes[0].to);
    expect(rest.stdout).toContain(plan.changes[0].to);
    expect(rest.stdout).toMatch(new RegExp(`1 name changed, 1 kept; batch ${batchId} completed`));
    expect(await imagesUsed(key)).toBe(2);

    // A name a person gave is kept, unless --include-edited.
    const renamed = await fetch(`${apiUrl}/api/image/${first!.imageId}/filename`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'blue-leather-boots' }),
    });
    expect(renamed.status).toBe(200);
    const kept = JSON.parse((await renamer(['rename', '--again', batchId!, '--dry-run', '--json'], env)).stdout);
    // (The other image may now take the name without its -2 that the renamed one held.)
    expect(kept.changes.map((change: { imageId: string }) => change.imageId)).not.toContain(first!.imageId);
    const edited = await renamer(['rename', '--again', batchId!, '--include-edited', '--dry-run'], env);
    expect(edited.stdout).toMatch(/^IMG_0001\.JPG +blue-leather-boots\.jpg +shop-[a-z0-9-]+\.jpg$/m);
    expect(edited.stdout).toContain('(dry run: nothing changed)');
    expect((await serverNames(key, batchId!))['IMG_0001.JPG']).toBe('blue-leather-boots.jpg');

    // --again is about a batch: paths, or an upload's options, are a usage mistake.
    expect((await renamer(['rename', '--again', batchId!, folder], env)).code).toBe(2);
    expect((await renamer(['rename', folder, '--include-edited'], env)).code).toBe(2);
  }, 120_000);
});

describe('renamer batches, status, download and keywords', () => {
  it('lists the batches, shows one, downloads its ZIP, and checks keywords (exit 3 when one is unusable)', async () => {
    const { key } = await stack.createUser({ quota: 50 });
    const folder = cameraFolder('commands', await syntheticPhotos([741, 742]));
    const renamed = renameResult(await renamer(['rename', folder, '--json'], { RENAMER_API_KEY: key }));
    const [batchId] = renamed.batches;

    const batches = JSON.parse((await renamer(['batches', '--json'], { RENAMER_API_KEY: key })).stdout);
    expect(batches).toEqual([expect.objectContaining({ batchId, status: 'completed', total: 2 })]);
    const status = await renamer(['status', batchId!], { RENAMER_API_KEY: key });
    expect(status.stdout).toContain(`${batchId} completed: 2 of 2 done`);

    const zip = join(testDir('cli-out'), 'batch.zip');
    const download = await renamer(['download', batchId!, '--manifest', '-o', zip], { RENAMER_API_KEY: key });
    expect(download.code, download.stderr).toBe(0);
    const entries = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
    expect(entries).toEqual(
      expect.arrayContaining([...renamed.files.map((file) => file.newName), 'renamer/manifest.csv']),
    );
    // The archive just fetched, in the account's downloads: every byte of it went out (recorded as the stream closed).
    const listed = await vi.waitFor(
      async () => {
        const run = await renamer(['downloads', '--json'], { RENAMER_API_KEY: key });
        const [newest] = JSON.parse(run.stdout);
        expect(newest.completedAt).toEqual(expect.any(String));
        return newest;
      },
      { timeout: 10_000 },
    );
    expect(listed).toMatchObject({
      kind: 'archive',
      batchId,
      entries: 2,
      options: { embed: false, strip: 'none', manifest: true },
      bytes: statSync(zip).size,
    });
    const lines = (await renamer(['downloads'], { RENAMER_API_KEY: key })).stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^created +kind +entries +bytes +completed +options +batch$/);
    expect(lines[1]).toMatch(new RegExp(`^\\S+ +archive +2 +${statSync(zip).size} +\\S+ +manifest +${batchId}$`));

    // Web-ready copies without metadata: WebP under the new extension.
    const webZip = join(testDir('cli-out'), 'web.zip');
    const web = await renamer(
      ['download', batchId!, '--strip', 'all', '--resize', '64', '--format', 'webp', '--quality', '70', '-o', webZip],
      { RENAMER_API_KEY: key },
    );
    expect(web.code, web.stderr).toBe(0);
    const webEntries = execFileSync('unzip', ['-Z1', webZip], { encoding: 'utf8' }).trim().split('\n');
    expect(webEntries).toEqual(renamed.files.map((file) => file.newName!.replace(/\.jpg$/, '.webp')));
    const refused = await renamer(['download', batchId!, '--resize', '0', '-o', webZip], { RENAMER_API_KEY: key });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/not valid/);

    const keywords = await renamer(['keywords', 'validate', 'Red Shoes', '<b>bold</b>'], { RENAMER_API_KEY: key });
    expect(keywords.code).toBe(3);
    expect(keywords.stdout).toMatch(/Red Shoes +yes +red shoes/);
    expect(keywords.stdout).toMatch(/<b>bold<\/b> +no/);
  }, 120_000);

  it('never overwrites a file: a second copy of the same photos into the same folder gets the next free names', async () => {
    const { key } = await stack.createUser({ quota: 50 });
    const folder = cameraFolder('no-clobber', await syntheticPhotos([751, 752]));
    const copies = join(testDir('cli-out'), 'no-clobber');
    const first = renameResult(
      await renamer(['rename', folder, '--copy-to', copies, '--json'], { RENAMER_API_KEY: key }),
    );
    const before = new Map(visible(copies).map((name) => [name, sha256(join(copies, name))]));
    const second = renameResult(
      await renamer(['rename', folder, '--copy-to', copies, '--json'], { RENAMER_API_KEY: key }),
    );
    expect(second.uploaded).toBe(0);
    expect(visible(copies)).toHaveLength(4);
    for (const [name, checksum] of before) expect(sha256(join(copies, name))).toBe(checksum);
    // Each copy under its name with the next number free (two photos may share a stem: -2 is then taken already).
    for (const [index, file] of second.files.entries()) {
      const stem = first.files[index]!.newName!.replace(/\.jpg$/, '');
      expect(file.deliveredAs!.startsWith(join(copies, `${stem}-`))).toBe(true);
      expect(file.deliveredAs).toMatch(/-\d+\.jpg$/);
      expect(before.has(file.deliveredAs!.split('/').pop()!)).toBe(false);
    }
  }, 120_000);
});

describe('renamer login, whoami and the package', () => {
  it('stores the server and key readable only by the user, and uses them', async () => {
    const { key, user } = await stack.createUser({ quota: 50 });
    const config = join(testDir('cli-login'), 'config');
    const login = await renamer(['login', '--server', apiUrl], {
      RENAMER_API_KEY: key,
      RENAMER_SERVER: '',
      XDG_CONFIG_HOME: config,
    });
    expect(login.code, login.stderr).toBe(0);
    expect(statSync(join(config, 'renamer/config.json')).mode & 0o777).toBe(0o600);

    const whoami = await renamer(['whoami', '--json'], { RENAMER_SERVER: '', XDG_CONFIG_HOME: config });
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ id: user.id, usage: { quota: 50 } });
  });

  it('packs into a tarball that npx runs on its own, and prints a completion script for each shell', () => {
    const packed = testDir('cli-pack');
    const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', packed], {
      cwd: CLI_DIR,
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .at(-1)!;
    const elsewhere = testDir('cli-npx');
    copyFileSync(join(packed, tarball), join(elsewhere, tarball));
    const version = execFileSync('npx', ['--yes', '--package', `./${tarball}`, 'renamer', '--version'], {
      cwd: elsewhere,
      encoding: 'utf8',
      env: { ...process.env, npm_config_cache: join(elsewhere, 'npm-cache'), npm_config_offline: 'true' },
    });
    expect(version.trim()).toBe('0.1.0');

    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = execFileSync(process.execPath, [CLI, 'completion', shell], { encoding: 'utf8' });
      expect(script).toContain('rename');
      expect(script).toMatch(shell === 'fish' ? /-l in-place/ : /--in-place/);
    }
    execFileSync('bash', ['-n'], { input: execFileSync(process.execPath, [CLI, 'completion', 'bash']) });
  }, 60_000);
});
