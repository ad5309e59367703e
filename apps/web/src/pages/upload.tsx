import { BatchCheckResponse, IMAGE_FILE_EXTENSIONS, ImageList, Profile } from '@renamer/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiProblem, api } from '../api/client';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { InstructionsField, TemplateField, TemplateHelp, TemplatePreview } from '../ui/naming';
import { explain, nextStep, ProblemLine } from '../ui/problem';
import { browserShows, extensionOf, folderOf, readDrop, refusalSentence, sortChosen } from '../upload/choose';
import { hashFiles } from '../upload/hash-files';
import { FILES_PER_REQUEST, type RequestOutcome, sendGroups, type UploadFields } from '../upload/send-files';
import { BatchPanels } from './batch-panel';
import './upload.css';

/** The types the API takes, for the file pickers (the API checks the bytes themselves). */
const ACCEPT = ['image/*', ...IMAGE_FILE_EXTENSIONS.map((extension) => `.${extension}`)].join(',');
const CHECK_CHUNK = 1000;

type FileState =
  | { state: 'waiting' }
  | { state: 'skipped'; detail: string }
  /** `offset`: the bytes of the files before it in its request, which are sent first. */
  | { state: 'uploading'; group: number; offset: number }
  | { state: 'accepted'; batchId: string }
  | { state: 'rejected'; code: string; detail: string }
  | { state: 'network' };

interface Row {
  file: File;
  status: FileState;
  /** An object URL of the file for its thumbnail, for the formats a browser draws; revoked when the row goes. */
  preview?: string;
}

/** What the person chose for the files their account already holds; `cancel`: nothing is sent (Esc). */
type HeldChoice = 'skip' | 'again' | 'cancel';

/** What the last upload came to, shown in place of the form. */
interface Summary {
  accepted: number;
  skipped: number;
  refused: { name: string; detail: string }[];
  network: number;
}

const sameFile = (a: File, b: File) =>
  a.name === b.name &&
  a.size === b.size &&
  a.lastModified === b.lastModified &&
  a.webkitRelativePath === b.webkitRelativePath;
const revoke = (rows: readonly Row[]) => {
  for (const row of rows) if (row.preview) URL.revokeObjectURL(row.preview);
};

/**
 * Drop files or a folder, or pick them: each is hashed in a Web Worker, those the account already holds are
 * skipped (POST /api/batch/check), the rest go up in requests of at most 100 files, two at a time, each file's
 * fate shown beside it; what the network dropped can be sent again. The whole window takes a drop (highlighted
 * while files are dragged over it); only the files the service takes are counted and listed, each with a thumbnail
 * and a remove button. After an upload the form gives way to a summary, and the batches made are followed on the
 * same page, in view.
 */
export function UploadPage({ onReview }: { onReview: (batchId: string) => void }) {
  const queries = useQueryClient();
  const ids = {
    keywords: useId(),
    context: useId(),
    locale: useId(),
    template: useId(),
    instructions: useId(),
    files: useId(),
    folder: useId(),
    name: useId(),
  };
  const me = useQuery({ queryKey: ['me'], queryFn: () => api('/api/auth/me', Profile) });
  const [rows, setRows] = useState<Row[]>([]);
  const [fields, setFields] = useState<UploadFields>({
    name: '',
    keywords: '',
    context: '',
    locale: 'en',
    template: '',
    instructions: '',
  });
  /** The server's refusal of the template (`invalid_template`): said under the field, the files kept to send again. */
  const [templateProblem, setTemplateProblem] = useState<string>();
  const templateInput = useRef<HTMLInputElement>(null);
  const [phase, setPhase] = useState<'idle' | 'hashing' | 'uploading' | 'done'>('idle');
  const [hashed, setHashed] = useState(0);
  const [sent, setSent] = useState<Record<number, number>>({});
  const [failure, setFailure] = useState<unknown>();
  /** The files of the last pick or drop the service does not take, said once. */
  const [refusedNote, setRefusedNote] = useState<string>();
  /** The batches this page made, followed below. */
  const [batchIds, setBatchIds] = useState<string[]>([]);
  const [summary, setSummary] = useState<Summary>();
  const [formOpen, setFormOpen] = useState(true);
  const [dragging, setDragging] = useState(false);
  /** The question about files the account already holds, while it is asked: how many, of how many, and its answer. */
  const [heldQuestion, setHeldQuestion] = useState<{
    held: number;
    total: number;
    answer: (choice: HeldChoice) => void;
  }>();
  /** The name the last folder gave the batch: replaced by the next folder's unless the person typed their own. */
  const folderName = useRef('');
  const summaryRef = useRef<HTMLDivElement>(null);
  /** Each file's latest state, read when an upload ends to sum it up. */
  const latest = useRef(new Map<File, FileState>());
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  function add(files: Iterable<File>, folder?: string) {
    const { accepted, refused } = sortChosen(files);
    setRefusedNote(refusalSentence(refused));
    const fresh = accepted.filter(
      (file, index) =>
        !rowsRef.current.some((row) => sameFile(row.file, file)) &&
        accepted.findIndex((other) => sameFile(other, file)) === index,
    );
    if (fresh.length > 0) {
      const added = fresh.map((file) => ({
        file,
        status: { state: 'waiting' } as const,
        ...(browserShows(file) ? { preview: URL.createObjectURL(file) } : {}),
      }));
      setRows((current) => [...current, ...added]);
      setFormOpen(true);
    }
    if (folder && accepted.length > 0)
      setFields((current) => {
        if (current.name.trim() && current.name !== folderName.current) return current;
        folderName.current = folder;
        return { ...current, name: folder };
      });
  }
  const addLatest = useRef(add);
  addLatest.current = add;

  const remove = (file: File) =>
    setRows((current) => {
      revoke(current.filter((row) => row.file === file));
      return current.filter((row) => row.file !== file);
    });

  // The thumbnails' object URLs go with the page.
  useEffect(() => () => revoke(rowsRef.current), []);

  // The whole window takes a drop of files: highlighted while they are dragged over it, and a drop anywhere is the
  // page's, never the browser's (which would open the photo in place of the app).
  useEffect(() => {
    let depth = 0;
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth += 1;
      setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0 || event.relatedTarget === null) {
        depth = 0;
        setDragging(false);
      }
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event) || !event.dataTransfer) return;
      event.preventDefault();
      depth = 0;
      setDragging(false);
      void readDrop(event.dataTransfer).then(({ files, folder }) => addLatest.current(files, folder));
    };
    const onEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      depth = 0;
      setDragging(false);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    window.addEventListener('keydown', onEscape);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
      window.removeEventListener('keydown', onEscape);
    };
  }, []);

  // After an upload, its summary and the batch it made are what is in view.
  useEffect(() => {
    if (!formOpen && summary) summaryRef.current?.scrollIntoView({ block: 'start' });
  }, [formOpen, summary]);

  /** Sets the state of `files`, each by `statusOf`. */
  function record(files: readonly File[], statusOf: (file: File) => FileState) {
    const states = new Map(files.map((file) => [file, statusOf(file)]));
    for (const [file, status] of states) latest.current.set(file, status);
    setRows((current) =>
      current.map((row) => (states.has(row.file) ? { ...row, status: states.get(row.file)! } : row)),
    );
  }
  const setStatus = (files: readonly File[], status: FileState) => record(files, () => status);

  function settle(files: readonly File[], outcome: RequestOutcome) {
    if (outcome.ok) {
      const rejected = new Map(outcome.response.rejected.map((file) => [file.originalFilename, file]));
      const { batchId } = outcome.response;
      if (files.some((file) => !rejected.has(file.name)))
        setBatchIds((current) => (current.includes(batchId) ? current : [...current, batchId]));
      record(files, (file) => {
        const refusal = rejected.get(file.name);
        return refusal
          ? { state: 'rejected', code: refusal.code, detail: refusal.detail }
          : { state: 'accepted', batchId };
      });
    } else if ('network' in outcome) {
      setStatus(files, { state: 'network' });
    } else if (outcome.problem.code === 'invalid_template') {
      // Nothing of the request was kept: the files wait for a corrected template.
      setStatus(files, { state: 'waiting' });
      setTemplateProblem(explain(new ApiProblem(outcome.problem.status, 'invalid_template', outcome.problem.detail)));
    } else {
      const perFile = new Map((outcome.problem.errors ?? []).map((error) => [error.path, error]));
      record(files, (file) => {
        const own = perFile.get(file.name);
        return {
          state: 'rejected',
          code: own?.code ?? outcome.problem.code,
          detail: own?.message ?? outcome.problem.detail,
        };
      });
    }
  }

  /** Opens the question about held files and resolves with the person's answer once they give it. */
  function askAboutHeld(held: number, total: number): Promise<HeldChoice> {
    return new Promise((resolve) =>
      setHeldQuestion({
        held,
        total,
        answer: (choice) => {
          setHeldQuestion(undefined);
          resolve(choice);
        },
      }),
    );
  }

  async function upload(files: readonly File[]) {
    setFailure(undefined);
    setTemplateProblem(undefined);
    try {
      await hashCheckAndSend(files);
    } catch (error) {
      setFailure(error);
      setPhase('idle');
    }
  }

  async function hashCheckAndSend(files: readonly File[]) {
    setPhase('hashing');
    setHashed(0);
    const hashes = await hashFiles(files, setHashed);
    const existing = new Map<string, string>();
    for (let start = 0; start < hashes.length; start += CHECK_CHUNK) {
      const { existing: found } = await api('/api/batch/check', BatchCheckResponse, {
        method: 'POST',
        json: { checksums: [...new Set(hashes.slice(start, start + CHECK_CHUNK))] },
      });
      for (const match of found) existing.set(match.checksum, match.imageId);
    }
    const held = files.filter((_, index) => existing.has(hashes[index]!));
    // Asked once per upload: skip what the account holds (as before), or name it again here (duplicates=allow).
    const choice = held.length > 0 ? await askAboutHeld(held.length, files.length) : 'skip';
    if (choice === 'cancel') {
      setPhase('idle');
      return;
    }
    const again = choice === 'again';
    // Named again, a file repeated in this upload would go up twice (in different requests): it is skipped here.
    const firstOf = new Map<string, File>();
    files.forEach((file, index) => {
      if (!firstOf.has(hashes[index]!)) firstOf.set(hashes[index]!, file);
    });
    const repeated = again ? files.filter((file, index) => firstOf.get(hashes[index]!) !== file) : [];
    const fresh = files.filter((file, index) => (again || !existing.has(hashes[index]!)) && !repeated.includes(file));
    if (!again) setStatus(held, { state: 'skipped', detail: 'Already in your account: not uploaded again.' });
    setStatus(repeated, { state: 'skipped', detail: 'The same photo is earlier in this upload.' });
    const groups: File[][] = [];
    for (let start = 0; start < fresh.length; start += FILES_PER_REQUEST)
      groups.push(fresh.slice(start, start + FILES_PER_REQUEST));
    setPhase('uploading');
    setSent({});
    record(fresh, (file) => {
      const group = groups.findIndex((files) => files.includes(file));
      const before = groups[group]!.slice(0, groups[group]!.indexOf(file));
      return { state: 'uploading', group, offset: before.reduce((sum, other) => sum + other.size, 0) };
    });
    let templateRefused = false;
    await sendGroups(
      groups,
      again ? { ...fields, duplicates: 'allow' } : fields,
      (group, outcome) => {
        if (!outcome.ok && 'problem' in outcome && outcome.problem.code === 'invalid_template') templateRefused = true;
        settle(groups[group]!, outcome);
      },
      (group, bytes) => setSent((current) => ({ ...current, [group]: bytes })),
    );
    if (templateRefused) {
      setPhase('idle');
      templateInput.current?.focus();
      return;
    }
    // The form gives way to the summary; the files sent leave the list (those the network dropped stay, to be
    // sent again), so the next pick starts afresh.
    const outcomes = files.map((file) => ({ file, status: latest.current.get(file) ?? { state: 'waiting' } }));
    const done = new Set(outcomes.filter(({ status }) => status.state !== 'network').map(({ file }) => file));
    setSummary({
      accepted: outcomes.filter(({ status }) => status.state === 'accepted').length,
      skipped: outcomes.filter(({ status }) => status.state === 'skipped').length,
      refused: outcomes.flatMap(({ file, status }) =>
        status.state === 'rejected'
          ? [{ name: file.name, detail: `${status.detail} ${nextStep(status.code) ?? ''}`.trim() }]
          : [],
      ),
      network: outcomes.filter(({ status }) => status.state === 'network').length,
    });
    setRows((current) => {
      revoke(current.filter((row) => done.has(row.file)));
      return current.filter((row) => !done.has(row.file));
    });
    for (const file of done) latest.current.delete(file);
    setRefusedNote(undefined);
    setFormOpen(false);
    setPhase('done');
    void queries.invalidateQueries({ queryKey: ['quota'] });
    void queries.invalidateQueries({ queryKey: ['batches'] });
  }

  const start = (event: FormEvent) => {
    event.preventDefault();
    void upload(rows.filter((row) => row.status.state === 'waiting').map((row) => row.file));
  };
  const retry = () => void upload(rows.filter((row) => row.status.state === 'network').map((row) => row.file));

  const count = (state: FileState['state']) => rows.filter((row) => row.status.state === state).length;
  const waiting = count('waiting');
  const busy = phase === 'hashing' || phase === 'uploading';
  const totalBytes = rows.reduce((sum, row) => sum + (row.status.state === 'uploading' ? row.file.size : 0), 0);
  const sentBytes = Object.values(sent).reduce((sum, bytes) => sum + bytes, 0);

  return (
    <section aria-labelledby="upload-title" className="upload-page">
      <h2 id="upload-title">Upload photos</h2>
      {dragging && (
        <div className="drop-overlay" data-testid="drop-highlight" aria-hidden="true">
          <p>Drop the photos anywhere to add them</p>
        </div>
      )}
      {!formOpen && summary && (
        <div className="upload-summary" ref={summaryRef}>
          <p role="status">
            {summary.accepted} uploaded, {summary.skipped} already in your account, {summary.refused.length} refused
            {summary.network > 0 && `, ${summary.network} not sent`}.
          </p>
          {summary.refused.length > 0 && (
            <ul aria-label="Refused files">
              {summary.refused.map((file) => (
                <li key={file.name}>
                  {file.name}: {file.detail}
                </li>
              ))}
            </ul>
          )}
          <p className="actions">
            <button type="button" className="secondary" onClick={() => setFormOpen(true)}>
              Upload more photos
            </button>
          </p>
        </div>
      )}
      {formOpen && (
        <form onSubmit={start}>
          <div className={`drop-zone${dragging ? ' active' : ''}`}>
            <p>Drop photos or a folder anywhere on this page, or choose them:</p>
            <label htmlFor={ids.files}>Photos</label>
            <input
              id={ids.files}
              type="file"
              multiple
              accept={ACCEPT}
              onChange={(event) => {
                add(event.target.files ?? []);
                event.target.value = '';
              }}
            />
            <label htmlFor={ids.folder}>A folder</label>
            <input
              id={ids.folder}
              type="file"
              multiple
              {...{ webkitdirectory: '', directory: '' }}
              onChange={(event) => {
                const files = [...(event.target.files ?? [])];
                add(files, folderOf(files));
                event.target.value = '';
              }}
            />
          </div>
          {refusedNote && (
            <p role="status" className="refused-note">
              {refusedNote}
            </p>
          )}
          {rows.length > 0 ? (
            <ul aria-label="Chosen photos" className="chosen-files">
              {rows.map((row) => (
                <li key={`${row.file.webkitRelativePath}/${row.file.name}-${row.file.size}-${row.file.lastModified}`}>
                  {row.preview ? (
                    <img
                      className="thumb"
                      src={row.preview}
                      alt=""
                      width={48}
                      height={48}
                      // Decoded off the main thread and only once in view: a folder of hundreds of originals.
                      loading="lazy"
                      decoding="async"
                    />
                  ) : (
                    <span className="thumb placeholder" aria-hidden="true">
                      {extensionOf(row.file.name).toUpperCase() || 'IMG'}
                    </span>
                  )}
                  <span className="file-name">{row.file.webkitRelativePath || row.file.name}</span>
                  <span className="meta">{describe(row.status, row.file, sent)}</span>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Remove ${row.file.name}`}
                    disabled={busy && row.status.state !== 'waiting'}
                    onClick={() => remove(row.file)}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty">No photos chosen yet.</p>
          )}
          <label htmlFor={ids.name}>Batch name (optional: a picked folder's name by default)</label>
          <input
            id={ids.name}
            maxLength={200}
            placeholder="e.g. summer-shoot; empty: the date of the upload"
            value={fields.name}
            onChange={(event) => setFields({ ...fields, name: event.target.value })}
          />
          <label htmlFor={ids.keywords}>Keywords (comma-separated, they lead the names)</label>
          <input
            id={ids.keywords}
            value={fields.keywords}
            onChange={(event) => setFields({ ...fields, keywords: event.target.value })}
          />
          <label htmlFor={ids.context}>What the photos show (optional)</label>
          <textarea
            id={ids.context}
            maxLength={500}
            value={fields.context}
            onChange={(event) => setFields({ ...fields, context: event.target.value })}
          />
          <TemplateField
            id={ids.template}
            label="Naming template (optional)"
            inputRef={templateInput}
            placeholder={me.data?.template ?? '{subject}'}
            describedBy={`${ids.template}-hint${templateProblem ? ` ${ids.template}-problem` : ''}`}
            invalid={templateProblem !== undefined}
            value={fields.template}
            onChange={(template) => {
              setTemplateProblem(undefined);
              setFields({ ...fields, template });
            }}
          />
          <p id={`${ids.template}-hint`} className="meta">
            {me.data?.template
              ? `Empty: your account's default, ${me.data.template}.`
              : 'Empty: the names say what each photo shows.'}{' '}
            The server checks the template when you upload; once photos are uploaded, the names it gives them are
            previewed here and on their batch's review page.
          </p>
          {templateProblem && (
            <p id={`${ids.template}-problem`} role="alert" className="problem">
              {templateProblem}
            </p>
          )}
          <TemplateHelp open />
          {fields.template.trim() && <LastUploadPreview batchId={batchIds.at(-1)} template={fields.template} />}
          <InstructionsField
            id={ids.instructions}
            label="Instructions for the vision model (optional)"
            placeholder={me.data?.instructions ?? 'e.g. mention the product colour'}
            note={
              me.data?.instructions
                ? "Empty: your account's default. Read only when the server runs a vision model."
                : undefined
            }
            value={fields.instructions}
            onChange={(instructions) => setFields({ ...fields, instructions })}
          />
          <label htmlFor={ids.locale}>Language of the names</label>
          <select
            id={ids.locale}
            value={fields.locale}
            onChange={(event) => setFields({ ...fields, locale: event.target.value })}
          >
            <option value="en">English</option>
            <option value="de">Deutsch</option>
            <option value="fr">Français</option>
            <option value="es">Español</option>
          </select>
          <button type="submit" disabled={waiting === 0 || busy}>
            Upload {waiting} {waiting === 1 ? 'photo' : 'photos'}
          </button>
        </form>
      )}
      {heldQuestion && <HeldQuestion {...heldQuestion} />}
      <ProblemLine error={failure} />
      {phase === 'hashing' && (
        <p role="status">
          Checking files: {hashed} of {rows.length}…
        </p>
      )}
      {phase === 'uploading' && totalBytes > 0 && (
        <progress max={totalBytes} value={Math.min(sentBytes, totalBytes)} aria-label="Upload progress" />
      )}
      {count('network') > 0 && !busy && (
        <button type="button" onClick={retry}>
          Send the {count('network')} again
        </button>
      )}
      {batchIds.length > 0 && <BatchPanels batchIds={[...batchIds].reverse()} onReview={onReview} />}
    </section>
  );
}

/**
 * Asked once per upload when some chosen files are already in the account (`POST /api/batch/check` named them):
 * "Skip them" (they are not sent, as before; it has the focus, so a habitual Enter costs no quota) or "Name them
 * again here" (sent with `duplicates=allow`: new images of this upload's batch, counted against the quota). Esc
 * sends nothing and leaves the files chosen.
 */
function HeldQuestion({ held, total, answer }: { held: number; total: number; answer: (choice: HeldChoice) => void }) {
  return (
    <ConfirmDialog
      open
      title="Photos already in your account"
      confirm="Name them again here"
      cancel="Skip them"
      onConfirm={() => answer('again')}
      onCancel={() => answer('skip')}
      onEscape={() => answer('cancel')}
    >
      <p>
        {total === 1
          ? 'This photo is already in your account.'
          : `${held} of these photos ${held === 1 ? 'is' : 'are'} already in your account.`}
      </p>
      <p className="meta">
        Skip them, or name them again here: each becomes a new image of this upload, with its own name, and counts
        towards this month's quota. The {held === 1 ? 'photo' : 'photos'} already in your account keep their names.
      </p>
    </ConfirmDialog>
  );
}

/**
 * Once a batch was uploaded from this page, the names the template being typed would give its first photos (the
 * batch followed below, so its images are already read): an example before the next upload.
 */
function LastUploadPreview({ batchId, template }: { batchId: string | undefined; template: string }) {
  const images = useQuery({
    queryKey: ['batch-images', batchId, 'list'],
    queryFn: () => api(`/api/image/batch/${batchId}?limit=100`, ImageList),
    enabled: batchId !== undefined,
  });
  const named = images.data?.items.filter((image) => image.filename) ?? [];
  if (named.length === 0) return null;
  return (
    <>
      <p className="meta">What this template would name the photos of your last upload:</p>
      <TemplatePreview template={template} images={named} />
    </>
  );
}

function describe(status: FileState, file: File, sent: Record<number, number>): string {
  switch (status.state) {
    case 'waiting':
      return 'ready to upload';
    case 'skipped':
      return status.detail;
    case 'uploading': {
      const done = Math.min(1, Math.max(0, ((sent[status.group] ?? 0) - status.offset) / Math.max(1, file.size)));
      return `uploading… ${Math.round(done * 100)} %`;
    }
    case 'accepted':
      return 'uploaded';
    case 'rejected':
      return `refused: ${status.detail} ${nextStep(status.code) ?? ''}`.trim();
    case 'network':
      return 'not sent: the connection dropped';
  }
}
