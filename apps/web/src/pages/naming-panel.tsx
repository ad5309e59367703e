import { BatchStatusResponse, ProposeChanges } from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { z } from 'zod';
import { api } from '../api/client';
import { isFinished } from '../api/live-batches';
import { InstructionsField, TemplateField, TemplateHelp, TemplatePreview } from '../ui/naming';
import { ProblemLine } from '../ui/problem';

type Changes = z.infer<typeof ProposeChanges>['changes'];
/** A dry run shown for confirmation: which images it was for (all, or the marked ones) and what it would change. */
interface Plan {
  imageIds: string[] | undefined;
  includeEdited: boolean;
  changes: Changes;
}

/**
 * How a batch is named: its template (with a live preview of the names it gives the first images) and its
 * instructions for the vision model, saved with PATCH /api/batch/:id; and "Name again" for the whole batch or the
 * marked images, whose changes are shown first (`?dryRun=true`) and applied on confirmation; the batch then goes
 * processing → completed, followed live by the review page.
 */
export function NamingPanel({
  batchId,
  images,
  marked,
  onNamedAgain,
}: {
  batchId: string;
  images: readonly { id: string; originalFilename: string }[];
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
  images: readonly { id: string; originalFilename: string }[];
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
    onMutate: () => setApplied(false),
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
      setPlan(undefined);
      setApplied(true);
      onNamedAgain();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const working = !isFinished(batch.status);
  const busy = working || preview.isPending || apply.isPending;
  const names = new Map(images.map((image) => [image.id, image.originalFilename]));

  return (
    <>
      <form onSubmit={submit}>
        <TemplateField id={`${id}-template`} label="Naming template" value={template} onChange={setTemplate} />
        <TemplateHelp />
        <p className="meta">{images.length > 0 ? 'The first names it gives:' : 'No image to preview yet.'}</p>
        <TemplatePreview template={template} images={images} />
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
        <button type="button" disabled={busy} onClick={() => preview.mutate(undefined)}>
          Name the whole batch again…
        </button>
        <button type="button" disabled={busy || marked.length === 0} onClick={() => preview.mutate([...marked])}>
          Name the {marked.length} marked {marked.length === 1 ? 'image' : 'images'} again…
        </button>
      </p>
      {marked.length === 0 && (
        <p className="meta">
          Mark images with <kbd>x</kbd> in the list (or the checkbox beside the selected image) to name only those.
        </p>
      )}
      <ProblemLine error={preview.error ?? apply.error} />
      {working && (
        <p role="status" data-testid="naming-status">
          The batch is {batch.status}: {batch.processed} of {batch.total} done…
        </p>
      )}
      {!working && applied && (
        <p role="status" data-testid="naming-status">
          Names proposed again: the list shows them.
        </p>
      )}
      {plan && (
        <section aria-label="Changes naming again would make">
          {plan.changes.length === 0 ? (
            <p role="status">No name would change.</p>
          ) : (
            <>
              <p role="status">
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
              <button type="button" disabled={busy} onClick={() => apply.mutate(plan)}>
                Apply {plan.changes.length} {plan.changes.length === 1 ? 'change' : 'changes'}
              </button>
            )}
            <button type="button" onClick={() => setPlan(undefined)}>
              {plan.changes.length > 0 ? 'Cancel' : 'Close'}
            </button>
          </p>
        </section>
      )}
    </>
  );
}
