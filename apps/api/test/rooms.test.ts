import type { ServerMessage } from '@renamer/contracts';
import { describe, expect, it } from 'vitest';
import { createRooms } from '../src/ws/rooms';

const member = () => ({ send: (_message: ServerMessage) => undefined });

describe('the rooms of one API instance', () => {
  it('holds each member once per batch and drops a room with its last member', () => {
    const rooms = createRooms<ReturnType<typeof member>>();
    const [first, second] = [member(), member()];
    rooms.join('batch-1', first);
    rooms.join('batch-1', first);
    rooms.join('batch-1', second);
    rooms.join('batch-2', second);
    expect(rooms.members('batch-1')).toEqual([first, second]);
    expect(rooms.size).toBe(2);

    rooms.leave('batch-1', first);
    rooms.leave('batch-2', second);
    expect(rooms.members('batch-1')).toEqual([second]);
    expect(rooms.members('batch-2')).toEqual([]);
    expect(rooms.size).toBe(1);
  });

  it('closes a room, handing back the members it had', () => {
    const rooms = createRooms<ReturnType<typeof member>>();
    const [first, second] = [member(), member()];
    rooms.join('batch-1', first);
    rooms.join('batch-1', second);
    expect(rooms.close('batch-1')).toEqual([first, second]);
    expect(rooms.close('batch-1')).toEqual([]);
    expect(rooms.size).toBe(0);
  });
});
