import { BatchCheckResponse, IMAGE_FILE_EXTENSIONS, ImageList, Profile } from '@renamer/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, type FormEvent, useId, useRef, useState } from 'react';
import { ApiProblem, api } from '../api/client';
import { InstructionsField, TemplateField, TemplateHelp, TemplatePreview } from '../ui/naming';
import { explain, nextStep, ProblemLine } from '../ui/problem';
import { hashFiles } from '../upload/hash-files';
import { FILES_PER_REQUEST, type RequestOutcome, sendGroups, type UploadFields } from '../upload/send-files';
import { BatchPanels } from './batch-panel';

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
}

const isImageLike = (file: File) => !file.name.startsWith('.');

/**
 * Drop files or a folder, or pick them: each is hashed in a Web Worker, those the account already holds are
 * skipped (POST /api/batch/check), the rest go up in requests of at most 100 files, two at a time, each file's
 * fate shown beside it; what the network dropped can be sent again. The batches made are then followed on
 * the same page.
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
  };
  const me = useQuery({ queryKey: ['me'], queryFn: () => api('/api/auth/me', Profile) });
  const [rows, setRows] = useState<Row[]>([]);
  const [fields, setFields] = useState<UploadFields>({
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
  const dropping = useRef(false);

  const add = (files: Iterable<File>) =>
    setRows((current) => [
      ...current,
      ...[...files].filter(isImageLike).map((file) => ({ file, status: { state: 'waiting' } as const })),
    ]);

  const setStatus = (files: readonly File[], status: FileState) =>
    setRows((current) => current.map((row) => (files.includes(row.file) ? { ...row, status } : row)));

  function settle(files: readonly File[], outcome: RequestOutcome) {
    if (outcome.ok) {
      const rejected = new Map(outcome.response.rejected.map((file) => [file.originalFilename, file]));
      setRows((current) =>
        current.map((row) => {
          if (!files.includes(row.file)) return row;
          const refusal = rejected.get(row.file.name);
          return {
            ...row,
            status: refusal
              ? { state: 'rejected', code: refusal.code, detail: refusal.detail }
              : { state: 'accepted', batchId: outcome.response.batchId },
          };
        }),
      );
    } else if ('network' in outcome) {
      setStatus(files, { state: 'network' });
    } else if (outcome.problem.code === 'invalid_template') {
      // Nothing of the request was kept: the files wait for a corrected template.
      setStatus(files, { state: 'waiting' });
      setTemplateProblem(explain(new ApiProblem(outcome.problem.status, 'invalid_template', outcome.problem.detail)));
    } else {
      const perFile = new Map((outcome.problem.errors ?? []).map((error) => [error.path, error]));
      setRows((current) =>
        current.map((row) => {
          if (!files.includes(row.file)) return row;
          const own = perFile.get(row.file.name);
          return {
            ...row,
            status: {
              state: 'rejected',
              code: own?.code ?? outcome.problem.code,
              detail: own?.message ?? outcome.problem.detail,
            },
          };
        }),
      );
    }
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
    const fresh = files.filter((_, index) => !existing.has(hashes[index]!));
    setStatus(
      files.filter((_, index) => existing.has(hashes[index]!)),
      { state: 'skipped', detail: 'Already in your account: not uploaded again.' },
    );
    const groups: File[][] = [];
    for (let start = 0; start < fresh.length; start += FILES_PER_REQUEST)
      groups.push(fresh.slice(start, start + FILES_PER_REQUEST));
    setPhase('uploading');
    setSent({});
    setRows((current) =>
      current.map((row) => {
        const group = groups.findIndex((files) => files.includes(row.file));
        if (group < 0) return row;
        const before = groups[group]!.slice(0, groups[group]!.indexOf(row.file));
        const offset = before.reduce((sum, file) => sum + file.size, 0);
        return { ...row, status: { state: 'uploading', group, offset } };
      }),
    );
    let templateRefused = false;
    await sendGroups(
      groups,
      fields,
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
    setPhase('done');
    void queries.invalidateQueries({ queryKey: ['quota'] });
    void queries.invalidateQueries({ queryKey: ['batches'] });
  }

  const start = (event: FormEvent) => {
    event.preventDefault();
    void upload(rows.filter((row) => row.status.state === 'waiting').map((row) => row.file));
  };
  const retry = () => void upload(rows.filter((row) => row.status.state === 'network').map((row) => row.file));
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    dropping.current = false;
    add(event.dataTransfer.files);
  };

  const count = (state: FileState['state']) => rows.filter((row) => row.status.state === state).length;
  const waiting = count('waiting');
  const batchIds = [...new Set(rows.flatMap((row) => (row.status.state === 'accepted' ? [row.status.batchId] : [])))];
  const totalBytes = rows.reduce((sum, row) => sum + (row.status.state === 'uploading' ? row.file.size : 0), 0);
  const sentBytes = Object.values(sent).reduce((sum, bytes) => sum + bytes, 0);

  return (
    <section aria-labelledby="upload-title">
      <h2 id="upload-title">Upload photos</h2>
      <form onSubmit={start}>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the file inputs inside are the way for everyone */}
        <div className="drop-zone" onDragOver={(event) => event.preventDefault()} onDrop={onDrop}>
          <p>Drop photos or a folder here, or choose them:</p>
          <label htmlFor={ids.files}>Photos</label>
          <input
            id={ids.files}
            type="file"
            multiple
            accept={ACCEPT}
            onChange={(event) => add(event.target.files ?? [])}
          />
          <label htmlFor={ids.folder}>A folder</label>
          <input
            id={ids.folder}
            type="file"
            multiple
            {...{ webkitdirectory: '', directory: '' }}
            onChange={(event) => add(event.target.files ?? [])}
          />
        </div>
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
        <button type="submit" disabled={waiting === 0 || phase === 'hashing' || phase === 'uploading'}>
          Upload {waiting} {waiting === 1 ? 'photo' : 'photos'}
        </button>
      </form>
      <ProblemLine error={failure} />
      {phase === 'hashing' && (
        <p role="status">
          Checking files: {hashed} of {rows.length}…
        </p>
      )}
      {phase === 'uploading' && totalBytes > 0 && (
        <progress max={totalBytes} value={Math.min(sentBytes, totalBytes)} aria-label="Upload progress" />
      )}
      {phase === 'done' && (
        <p role="status">
          {count('accepted')} uploaded, {count('skipped')} already in your account, {count('rejected')} refused
          {count('network') > 0 && `, ${count('network')} not sent`}.
        </p>
      )}
      {count('network') > 0 && phase === 'done' && (
        <button type="button" onClick={retry}>
          Send the {count('network')} again
        </button>
      )}
      <ul aria-label="Files">
        {rows.map((row) => (
          <li key={`${row.file.name}-${row.file.size}-${row.file.lastModified}`}>
            <span>{row.file.webkitRelativePath || row.file.name}</span>
            <span>{describe(row.status, row.file, sent)}</span>
          </li>
        ))}
      </ul>
      {batchIds.length > 0 && <BatchPanels batchIds={batchIds} onReview={onReview} />}
    </section>
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
