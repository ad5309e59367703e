import {
  BatchStatusResponse,
  EnhanceKeywordsResponse,
  MAX_KEYWORDS,
  SuggestKeywordsResponse,
  ValidateKeywordsResponse,
} from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../api/client';
import { ProblemLine } from '../ui/problem';
import type { Undoable } from '../ui/undo';

/**
 * The batch's keywords, which lead its names: add one (validated by the server's rules), remove one, or add
 * with one click what `suggest` (for the selected image) or `enhance` (for the keywords) proposes. Each change is
 * offered for undoing (`onChanged`).
 */
export function KeywordsPanel({
  batchId,
  imageId,
  onChanged,
}: {
  batchId: string;
  imageId: string | undefined;
  onChanged: (undo: Undoable) => void;
}) {
  const queries = useQueryClient();
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const batch = useQuery({
    queryKey: ['batch', batchId],
    queryFn: () => api(`/api/batch/${batchId}/status`, BatchStatusResponse),
  });
  const keywords = batch.data?.keywords ?? [];
  const patch = async (next: string[]) =>
    queries.setQueryData(
      ['batch', batchId],
      await api(`/api/batch/${batchId}`, BatchStatusResponse, { method: 'PATCH', json: { keywords: next } }),
    );
  const save = useMutation({
    mutationFn: async ({ next }: { next: string[]; said: string }) => {
      const before = keywords;
      await patch(next);
      return before;
    },
    onSuccess: (before, { said }) => onChanged({ label: said, run: () => patch(before) }),
  });
  const add = (keyword: string) => {
    if (keywords.includes(keyword) || keywords.length >= MAX_KEYWORDS) return;
    save.mutate({ next: [...keywords, keyword], said: `Added the keyword ${keyword}` });
  };
  const suggest = useMutation({
    mutationFn: () => api('/api/keywords/suggest', SuggestKeywordsResponse, { method: 'POST', json: { imageId } }),
  });
  const enhance = useMutation({
    mutationFn: () => api('/api/keywords/enhance', EnhanceKeywordsResponse, { method: 'POST', json: { keywords } }),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { results } = await api('/api/keywords/validate', ValidateKeywordsResponse, {
      method: 'POST',
      json: { keywords: [typed] },
    });
    const [result] = results;
    if (!result?.valid) return setProblem(result?.issues.join(' ') ?? 'Not a usable keyword.');
    setProblem(undefined);
    setTyped('');
    add(result.normalized);
  };
  const proposals = [
    ...(suggest.data?.suggestions ?? []),
    ...(enhance.data ? [...enhance.data.longTail, ...enhance.data.related] : []),
  ].filter((keyword, index, all) => !keywords.includes(keyword) && all.indexOf(keyword) === index);

  return (
    <aside aria-labelledby="keywords-title" className="keywords">
      <h3 id="keywords-title">Keywords of the batch</h3>
      <ul aria-label="Keywords of the batch" className="chips">
        {keywords.map((keyword) => (
          <li key={keyword}>
            {keyword}
            <button
              type="button"
              aria-label={`Remove ${keyword}`}
              onClick={() =>
                save.mutate({
                  next: keywords.filter((other) => other !== keyword),
                  said: `Removed the keyword ${keyword}`,
                })
              }
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={submit}>
        <label htmlFor={inputId}>Add a keyword</label>
        <input id={inputId} value={typed} maxLength={60} onChange={(event) => setTyped(event.target.value)} />
        <button type="submit" disabled={!typed.trim()}>
          Add
        </button>
        {problem && <p role="alert">{problem}</p>}
      </form>
      <ProblemLine error={save.error} />
      <p>
        <button type="button" disabled={!imageId || suggest.isPending} onClick={() => suggest.mutate()}>
          Suggest for this image
        </button>{' '}
        <button type="button" disabled={keywords.length === 0 || enhance.isPending} onClick={() => enhance.mutate()}>
          Enhance the keywords
        </button>
      </p>
      {proposals.length === 0 && (suggest.isSuccess || enhance.isSuccess) && (
        <p role="status">No new keyword to propose.</p>
      )}
      {proposals.length > 0 && (
        <ul aria-label="Proposed keywords" className="chips">
          {proposals.map((keyword) => (
            <li key={keyword}>
              <button type="button" onClick={() => add(keyword)} aria-label={`Add ${keyword}`}>
                + {keyword}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="meta">Images named from now on use them; a retry of the batch names again with them.</p>
    </aside>
  );
}
