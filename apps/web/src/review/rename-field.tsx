import { FilenameCheckResponse, type ImageView } from '@renamer/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { api } from '../api/client';
import { useDebounced } from '../ui/naming';
import { explain } from '../ui/problem';

const checkKey = (imageId: string, typed: string) => ['filename-check', imageId, typed];
const checkName = (imageId: string, filename: string) => () =>
  api('/api/image/filename-check', FilenameCheckResponse, { method: 'POST', json: { filename, imageId } });

/**
 * The new name, checked by the server's rules as it is typed (what it would become, its score, why not). The
 * field grows to show the whole name. `Enter` (or Save) waits for the server's check of exactly what was typed,
 * however soon after the last key, and saves only a name the rules take; `Esc` (or Cancel) leaves.
 */
export function RenameField({
  image,
  onSave,
  onCancel,
}: {
  image: ImageView;
  onSave: (name: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const queries = useQueryClient();
  const id = useId();
  const [typed, setTyped] = useState(image.filename ?? '');
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const settled = useDebounced(typed, 150);
  const field = useRef<HTMLTextAreaElement>(null);
  // Focused once, when it opens (not on every answer of the check), with the caret after the name.
  useEffect(() => {
    const input = field.current;
    input?.focus();
    input?.setSelectionRange(input.value.length, input.value.length);
  }, []);
  const check = useQuery({
    queryKey: checkKey(image.id, settled),
    queryFn: checkName(image.id, settled),
    placeholderData: (previous) => previous,
  });

  async function save() {
    if (saving) return;
    setSaving(true);
    try {
      const result = await queries.fetchQuery({
        queryKey: checkKey(image.id, typed),
        queryFn: checkName(image.id, typed),
      });
      if (!result.valid) return setRefusal(result.errors.map((error) => error.message).join(' '));
      await onSave(typed);
    } catch (error) {
      // Refused on saving (taken meanwhile, a limit, the network): said here, the field kept to try again.
      setRefusal(explain(error));
    } finally {
      setSaving(false);
    }
  }
  const onKey = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Escape') onCancel();
    if (event.key === 'Enter') {
      event.preventDefault();
      void save();
    }
  };
  const shown = refusal && settled === typed ? undefined : check.data;
  return (
    <div className="rename">
      <label htmlFor={id}>New name</label>
      <textarea
        id={id}
        className="rename-input"
        rows={1}
        spellCheck={false}
        autoCapitalize="none"
        enterKeyHint="done"
        value={typed}
        aria-describedby={`${id}-check`}
        onChange={(event) => {
          setRefusal(undefined);
          setTyped(event.target.value.replace(/\n/g, ''));
        }}
        onKeyDown={onKey}
        ref={field}
      />
      <p id={`${id}-check`} aria-live="polite" className="meta">
        {refusal ??
          (shown &&
            (shown.valid
              ? `→ ${shown.filename} · score ${shown.seo?.score}`
              : shown.errors.map((error) => error.message).join(' ')))}
      </p>
      <p className="actions">
        <button type="button" disabled={saving} onClick={() => void save()}>
          Save <kbd>Enter</kbd>
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel <kbd>Esc</kbd>
        </button>
      </p>
    </div>
  );
}
