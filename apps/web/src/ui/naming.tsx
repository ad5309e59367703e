import { FilenameCheckResponse, MAX_INSTRUCTIONS_LENGTH, MAX_TEMPLATE_LENGTH } from '@renamer/contracts';
import { useQuery } from '@tanstack/react-query';
import { type Ref, useEffect, useState } from 'react';
import { api } from '../api/client';
import { ProblemLine } from './problem';

/** Images whose names a template's preview shows. */
export const PREVIEWED = 3;

/** The tokens a naming template may hold, as ../shared/API.md lists them, for people. */
const TOKENS: [string, string][] = [
  ['{subject}', 'what the picture shows, in 3 to 6 words (shortened first when a name is too long)'],
  ['{keywords}', 'the batch’s keywords'],
  ['{place}', 'where it was taken, from the photo’s location'],
  ['{date}', 'when it was taken, else uploaded: {date} or {date:YYYY-MM-DD}, {date:YYYY-MM}, {date:YYYY}'],
  ['{camera}', 'the camera’s model'],
  ['{original}', 'the uploaded file’s name, made safe'],
  ['{seq}', 'the position in the upload from 1; {seq:3} pads it to 001'],
];

/**
 * What a template may hold, in a disclosure (keyboard and screen readers know it): the tokens, literal text, and
 * an example. A token without a value for an image drops out with its hyphen.
 */
export function TemplateHelp({ open = false }: { open?: boolean }) {
  return (
    <details open={open} className="template-help">
      <summary>Tokens a template may use</summary>
      <dl>
        {TOKENS.map(([token, meaning]) => (
          <div key={token}>
            <dt>
              <code>{token}</code>
            </dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
      <p className="meta">
        Any other text is kept as it is (a brand, say). A token without a value for a photo is left out. Example:{' '}
        <code>{'acme-{subject}-{seq:3}'}</code> gives <code>acme-red-leather-shoes-001.jpg</code>. Empty: the names are{' '}
        {'{subject}'} alone.
      </p>
    </details>
  );
}

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A naming template's field, its label above it: `{subject}` (or `placeholder`) when left empty. */
export function TemplateField({
  id,
  label,
  value,
  onChange,
  placeholder = '{subject}',
  inputRef,
  describedBy,
  invalid,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement>;
  describedBy?: string;
  invalid?: boolean;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        className="wide"
        maxLength={MAX_TEMPLATE_LENGTH}
        spellCheck={false}
        placeholder={placeholder}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </>
  );
}

/** Instructions for the vision model, with the room they have left and when they are read. */
export function InstructionsField({
  id,
  label,
  value,
  onChange,
  placeholder,
  note,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  /** Said after the room left (default: when the instructions are read). */
  note?: string;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        maxLength={MAX_INSTRUCTIONS_LENGTH}
        placeholder={placeholder}
        aria-describedby={`${id}-hint`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className="meta">
        {charactersLeft(value)}. {note ?? 'Read only when the server runs a vision model.'}
      </p>
    </>
  );
}

/** How much room the instructions have left, said beside the field. */
export const charactersLeft = (text: string) =>
  `${MAX_INSTRUCTIONS_LENGTH - text.length} of ${MAX_INSTRUCTIONS_LENGTH} characters left`;

/**
 * The names a template would give the first images of a batch (POST /api/image/filename-check with
 * `{ template, imageId }`), asked once typing pauses; an empty template previews `{subject}`. An unknown token or a
 * template that can never give a valid name shows the server's `invalid_template` detail.
 */
export function TemplatePreview({
  template,
  images,
}: {
  template: string;
  images: readonly { id: string; originalFilename: string }[];
}) {
  const settled = useDebounced(template.trim() || '{subject}');
  const shown = images.slice(0, PREVIEWED);
  const preview = useQuery({
    queryKey: ['template-preview', settled, shown.map((image) => image.id)],
    enabled: shown.length > 0,
    queryFn: () =>
      Promise.all(
        shown.map(async (image) => ({
          image,
          check: await api('/api/image/filename-check', FilenameCheckResponse, {
            method: 'POST',
            json: { template: settled, imageId: image.id },
          }),
        })),
      ),
    placeholderData: (previous) => previous,
  });
  if (shown.length === 0) return null;
  return (
    <div aria-live="polite" className="template-preview">
      {preview.error ? (
        <ProblemLine error={preview.error} />
      ) : (
        <ul aria-label="Names the template would give" aria-busy={preview.isFetching}>
          {preview.data?.map(({ image, check }) => (
            <li key={image.id}>
              <span className="meta">{image.originalFilename}</span>
              <strong data-testid="template-preview-name">{check.filename ?? '—'}</strong>
              {check.errors.length > 0 && (
                <span className="meta">{check.errors.map((error) => error.message).join(' ')}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
