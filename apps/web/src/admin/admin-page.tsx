import type { Profile } from '@renamer/contracts';
import { ADMIN_PATH } from './admin-path';
import { AnalyticsSection } from './analytics';
import { AuditLogSection } from './audit-log';
import { CleanupSection } from './cleanup';
import { FeatureFlagsSection } from './feature-flags';
import { HealthAndQueuesSection } from './health-and-queues';
import { LogsSection } from './logs';
import { PaymentsSection } from './payments';
import { UsersSection } from './users';

/** The dashboard's sections, each at `/admin/<path>`; the first is `/admin` itself. */
export const ADMIN_SECTIONS = [
  { path: 'analytics', label: 'Analytics', Section: AnalyticsSection },
  { path: 'users', label: 'Users', Section: UsersSection },
  { path: 'payments', label: 'Payments', Section: PaymentsSection },
  { path: 'queues', label: 'Health and queues', Section: HealthAndQueuesSection },
  { path: 'cleanup', label: 'Cleanup', Section: CleanupSection },
  { path: 'flags', label: 'Feature flags', Section: FeatureFlagsSection },
  { path: 'audit-log', label: 'Audit log', Section: AuditLogSection },
  { path: 'logs', label: 'Logs', Section: LogsSection },
] as const;

/**
 * The operators' dashboard, in the same app, over the admin API (reached through the API's origin). Only for
 * admins: anyone else is told it is not for them (the admin API refuses them anyway).
 */
export default function AdminPage({ profile, path, go }: { profile: Profile; path: string; go: (to: string) => void }) {
  if (profile.role !== 'admin') {
    return (
      <section aria-labelledby="admin-title">
        <h2 id="admin-title">Administration</h2>
        <p>This page is for the service's operators; your account does not have the admin role.</p>
      </section>
    );
  }
  const current = ADMIN_SECTIONS.find((section) => section.path === ADMIN_PATH.exec(path)?.[1]) ?? ADMIN_SECTIONS[0];
  return (
    <>
      <nav aria-label="Administration" className="sub-nav">
        {ADMIN_SECTIONS.map((section) => (
          <a
            key={section.path}
            href={`/admin/${section.path}`}
            aria-current={section === current ? 'page' : undefined}
            onClick={(event) => {
              event.preventDefault();
              go(`/admin/${section.path}`);
            }}
          >
            {section.label}
          </a>
        ))}
      </nav>
      <current.Section />
    </>
  );
}
