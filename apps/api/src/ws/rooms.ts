import type { ServerMessage } from '@renamer/contracts';

export interface RoomMember {
  send(message: ServerMessage): void;
}

/** Who listens to which batch on this API instance; a room disappears with its last member. */
export function createRooms<M extends RoomMember>() {
  const rooms = new Map<string, Set<M>>();
  return {
    join(batchId: string, member: M) {
      const room = rooms.get(batchId) ?? new Set<M>();
      room.add(member);
      rooms.set(batchId, room);
    },
    leave(batchId: string, member: M) {
      const room = rooms.get(batchId);
      room?.delete(member);
      if (room?.size === 0) rooms.delete(batchId);
    },
    has(batchId: string): boolean {
      return rooms.has(batchId);
    },
    members(batchId: string): readonly M[] {
      return [...(rooms.get(batchId) ?? [])];
    },
    close(batchId: string): readonly M[] {
      const members = [...(rooms.get(batchId) ?? [])];
      rooms.delete(batchId);
      return members;
    },
    /** Everyone in any room, once each. */
    everyMember(): Set<M> {
      return new Set([...rooms.values()].flatMap((room) => [...room]));
    },
    get size() {
      return rooms.size;
    },
  };
}
