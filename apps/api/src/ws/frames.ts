import type { Socket } from 'node:net';
import type { ServerMessage } from '@renamer/contracts';
import type { WebSocket } from 'ws';
import * as ws from 'ws';

interface FrameOptions {
  fin: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
  rsv1: boolean;
}
// ws exports its frame builder (`Sender.frame`) but @types/ws does not describe it.
const { Sender } = ws as unknown as { Sender: { frame(data: Buffer, options: FrameOptions): Buffer[] } };
const TEXT_FRAME: FrameOptions = { fin: true, opcode: 0x1, mask: false, readOnly: false, rsv1: false };

/** A server message as it goes on the wire: JSON, serialised once however many sockets it goes to. */
export const serialise = (message: ServerMessage): Buffer => Buffer.from(JSON.stringify(message));

/**
 * A message as one complete, unmasked WebSocket text frame, built once per room event: every member's
 * socket is then handed the same bytes, where `socket.send` would build a header and write twice per socket.
 */
export function textFrame(message: ServerMessage): Buffer {
  return Buffer.concat(Sender.frame(serialise(message), TEXT_FRAME));
}

/**
 * Writes a frame built by `textFrame` to the connection's TCP socket, behind whatever ws has written.
 * Right only while ws writes synchronously (no permessage-deflate, never a Blob): the server is set up
 * without compression, and the connection sends strings and Buffers only.
 */
export function writeFrame(socket: WebSocket, frame: Buffer): void {
  (socket as unknown as { _socket: Socket })._socket.write(frame);
}
