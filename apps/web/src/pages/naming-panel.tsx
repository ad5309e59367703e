import { BatchStatusResponse, ProposeChanges } from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { z } from 'zod';
import { api } from '../api/client';
import { InstructionsField, TemplateField, TemplateHelp, TemplatePreview } from '../ui/naming';
import { ProblemLine } from '../ui/problem';

type Changes = z.infer<typeof ProposeChanges>['changes'];
/** A dry run shown for confirmation: which images it was for (all, or the selected ones) and what it would change. */
interface Plan {
  imageIds: string[] | undefined;
  includeEdited: boolean;
  changes: Changes;
}

/**
 * How a batch is named: its template (with a live preview of the names it gives the first images) and its
 * instructions for the vision model, saved with PATCH /api/batch/:id; and "Name again" for the whole batch or the
 * selected images, whose changes are shown first (`?dryRun=true`) and applied on confirmation; the batch then goes
 * processing → completed, followed live by the review page.
 */
export function NamingPanel({
  batchId,
  images,
  marked,
  onNamedAgain,
}: {
  batchId: string;
  images: readonly { id: string; originalFilename: string; createdAt: string }[];
  marked: readonly string[];
  onNamedAgain: () => void;
}) {
  const batch = useQuery({
    queryKey: ['batch', batchId],
    queryFn: () => api(`/api/batch/${batchId}/status`, BatchStatusResponse),
  });
  if (!batch.data) return <ProblemLine error={batch.error} />;
  return (
    <section aria-labelledby={`naming-${batchId}`}>
      <h3 id={`naming-${batchId}`}>How the batch is named</h3>
      <NamingForm key={batchId} batch={batch.data} images={images} marked={marked} onNamedAgain={onNamedAgain} />
    </section>
  );
}

function NamingForm({
  batch,
  images,
  marked,
  onNamedAgain,
}: {
  batch: BatchStatusResponse;
  images: readonly { id: string; originalFilename: string; createdAt: string }[];
  marked: readonly string[];
  onNamedAgain: () => void;
}) {
  const queries = useQueryClient();
  const id = useId();
  const { batchId } = batch;
  const [template, setTemplate] = useState(batch.template ?? '');
  const [instructions, setInstructions] = useState(batch.instructions ?? '');
  const [includeEdited, setIncludeEdited] = useState(false);
  const [plan, setPlan] = useState<Plan>();
  const [applied, setApplied] = useState(false);
  const dirty = template.trim() !== (batch.template ?? '') || instructions.trim() !== (batch.instructions ?? '');
  /** The button that asked for the shown changes: focus goes back to it once they are applied or dismissed. */
  const trigger = useRef<HTMLButtonElement | null>(null);
  const changesHeading = useRef<HTMLParagraphElement>(null);
  const markedKey = marked.join(',');
  // A shown plan holds only for what it was asked with: the selected images, the box, the saved template.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the plan is dropped when either changes.
  useEffect(() => setPlan(undefined), [markedKey, includeEdited]);
  useEffect(() => {
    if (plan) changesHeading.current?.focus();
  }, [plan]);
  const dismiss = () => {
    setPlan(undefined);
    trigger.current?.focus();
  };

  const save = useMutation({
    mutationFn: () =>
      api(`/api/batch/${batchId}`, BatchStatusResponse, {
        method: 'PATCH',
        json: { template: template.trim() || null, instructions: instructions.trim() || null },
      }),
    onSuccess: (status) => {
      queries.setQueryData(['batch', batchId], status);
      setTemplate(status.template ?? '');
      setInstructions(status.instructions ?? '');
      setPlan(undefined);
    },
  });
  const preview = useMutation({
    mutationFn: async (imageIds: string[] | undefined) => {
      const { changes } = await api(`/api/batch/${batchId}/propose?dryRun=true`, ProposeChanges, {
        method: 'POST',
        json: { ...(imageIds ? { imageIds } : {}), includeEdited },
      });
      return { imageIds, includeEdited, changes };
    },
    onMutate: () => {
      setApplied(false);
      apply.reset();
    },
    onSuccess: setPlan,
  });
  const apply = useMutation({
    mutationFn: (chosen: Plan) =>
      api(`/api/batch/${batchId}/propose`, BatchStatusResponse, {
        method: 'POST',
        json: { ...(chosen.imageIds ? { imageIds: chosen.imageIds } : {}), includeEdited: chosen.includeEdited },
      }),
    onSuccess: (status) => {
      // The review page follows the batch live while it is not finished: its names change as the worker goes.
      queries.setQueryData(['batch', batchId], status);
      void queries.invalidateQueries({ queryKey: ['batch-images', batchId] });
      setApplied(true);
      dismiss();
      onNamedAgain();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  // Only a completed batch is named again: a failed or cancelled one is retried first (the server answers 409).
  const stopped = batch.status === 'failed' || batch.status === 'cancelled';
  const working = batch.status === 'queued' || batch.status === 'processing';
  const pending = preview.isPending || apply.isPending;
  const unavailable = batch.status !== 'completed' || dirty;
  const names = new Map(images.map((image) => [image.id, image.originalFilename]));
  // The first names a template gives are those of the first images uploaded, whatever order the list shows.
  const firstUploaded = [...images].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const ask = (button: HTMLButtonElement, imageIds: string[] | undefined) => {
    if (pending) return;
    trigger.current = button;
    preview.mutate(imageIds);
  };

  return (
    <>
      <form onSubmit={submit}>
        <TemplateField id={`${id}-template`} label="Naming template" value={template} onChange={setTemplate} />
        <TemplateHelp />
        <p className="meta">{images.length > 0 ? 'The first names it gives:' : 'No image to preview yet.'}</p>
        <TemplatePreview template={template} images={firstUploaded} />
        <InstructionsField
          id={`${id}-instructions`}
          label="Instructions for the vision model"
          value={instructions}
          onChange={setInstructions}
        />
        <button type="submit" disabled={!dirty || save.isPending}>
          Save template and instructions
        </button>
        {save.isSuccess && !dirty && <p role="status">Saved: “Name again” uses them.</p>}
        <ProblemLine error={save.error} />
      </form>

      <h4>Name again</h4>
      <p className="meta">
        Names are proposed again from what the analysis found, with the batch’s keywords, context, template and
        instructions as saved.{dirty && ' Save your changes above first for them to count.'}
      </p>
      <label className="inline">
        <input type="checkbox" checked={includeEdited} onChange={(event) => setIncludeEdited(event.target.checked)} />{' '}
        Also the images a person renamed or approved
      </label>
      <p className="actions">
        {/* aria-disabled while a request runs: a disabled button would drop the keyboard's focus. */}
        <button
          type="button"
          disabled={unavailable}
          aria-disabled={pending}
          onClick={(event) => ask(event.currentTarget, undefined)}
        >
          Name the whole batch again…
        </button>
        <button
          type="button"
          disabled={unavailable || marked.length === 0}
          aria-disabled={pending}
          onClick={(event) => ask(event.currentTarget, [...marked])}
        >
          Name the {marked.length} selected {marked.length === 1 ? 'image' : 'images'} again…
        </button>
      </p>
      {stopped && (
        <p className="meta">
          The batch is {batch.status}: retry it, and once it is completed its names can be proposed again.
        </p>
      )}
      {marked.length === 0 && (
        <p className="meta">
          Select images with <kbd>x</kbd>, a click on their boxes or a shift-click for a range, to name only those.
        </p>
      )}
      <ProblemLine error={preview.error ?? apply.error} />
      <p role="status" data-testid="naming-status">
        {working && applied && 'Proposing names again…'}
        {working && !applied && `The batch is ${batch.status}: ${batch.processed} of ${batch.total} done…`}
        {!working && applied && 'Names proposed again: the list shows them.'}
      </p>
      {plan && (
        <section aria-label="Changes naming again would make">
          {plan.changes.length === 0 ? (
            <p ref={changesHeading} tabIndex={-1}>
              No name would change.
            </p>
          ) : (
            <>
              <p ref={changesHeading} tabIndex={-1}>
                {plan.changes.length} {plan.changes.length === 1 ? 'name' : 'names'} would change:
              </p>
              <ul aria-label="Name changes" className="name-changes">
                {plan.changes.map((change) => (
                  <li key={change.imageId}>
                    <span className="meta">{names.get(change.imageId) ?? ''}</span>
                    <span>
                      {change.from} → <strong>{change.to}</strong>
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
          <p className="actions">
            {plan.changes.length > 0 && (
              <button type="button" aria-disabled={pending} onClick={() => pending || apply.mutate(plan)}>
                Apply {plan.changes.length} {plan.changes.length === 1 ? 'change' : 'changes'}
              </button>
            )}
            <button type="button" onClick={dismiss}>
              {plan.changes.length > 0 ? 'Cancel' : 'Close'}
            </button>
          </p>
        </section>
      )}
    </>
  );
}
