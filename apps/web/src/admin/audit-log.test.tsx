// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, renderWithQueries } from '../../test/render';
import { AuditLogSection } from './audit-log';

afterEach(cleanup);

const ENTRY = {
  id: '7e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b',
  actorId: '8f4a5b6c-7d8e-4f9a-8b1c-2d3e4f5a6b7c',
  action: 'user.ban',
  targetType: 'user',
  targetId: '9a5b6c7d-8e9f-4a0b-9c2d-3e4f5a6b7c8d',
  before: { bannedAt: null },
  after: { bannedAt: '2026-11-20T08:00:00.000Z' },
  details: {},
  requestId: null,
  createdAt: '2026-11-20T08:00:00.000Z',
};

describe('the audit log', () => {
  it('says it is empty when no admin has changed anything, and that nothing matches once filtered', async () => {
    fakeApi({
      'GET /api/admin/audit-log': ({ url }) => ({
        json: { items: url.searchParams.get('action') === 'user.ban' ? [ENTRY] : [], nextCursor: null },
      }),
    });
    renderWithQueries(<AuditLogSection />);
    const empty = await screen.findByText('The audit log is empty: no admin has changed anything yet.');
    expect(empty.className).toBe('empty');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Action'), 'user.ban');
    expect(await screen.findByText('user.ban', { selector: 'strong' })).toBeTruthy();
    expect(screen.queryByText(/The audit log is empty/)).toBeNull();

    await user.type(screen.getByLabelText('Action'), 'x');
    expect((await screen.findByText('No audit entry matches these filters.')).className).toBe('empty');
  });
});
