import { FeatureFlagList, FeatureFlagView } from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { api } from '../api/client';
import { formatTime } from '../ui/format';
import { ProblemLine } from '../ui/problem';

/** Every flag with what it does; a switch turns it on or off on every service within seconds. */
export function FeatureFlagsSection() {
  const id = useId();
  const queries = useQueryClient();
  const flags = useQuery({
    queryKey: ['admin', 'flags'],
    queryFn: () => api('/api/admin/feature-flags', FeatureFlagList),
  });
  const set = useMutation({
    mutationFn: ({ key, enabled }: { key: string; enabled: boolean }) =>
      api(`/api/admin/feature-flags/${key}`, FeatureFlagView, { method: 'PUT', json: { enabled } }),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['admin', 'flags'] }),
  });
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Feature flags</h2>
      <ProblemLine error={flags.error ?? set.error} />
      {flags.data?.items.length === 0 && <p className="empty">No feature flag.</p>}
      <ul aria-label="Feature flags">
        {flags.data?.items.map((flag) => (
          <li key={flag.key}>
            <span>
              <label>
                <input
                  type="checkbox"
                  role="switch"
                  aria-checked={flag.enabled}
                  checked={flag.enabled}
                  disabled={set.isPending}
                  onChange={(event) => set.mutate({ key: flag.key, enabled: event.target.checked })}
                />{' '}
                {flag.key}
              </label>
              <span className="meta">
                {flag.description}
                {flag.updatedAt ? ` Set ${formatTime(flag.updatedAt)}.` : ` Default (${flag.default ? 'on' : 'off'}).`}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
