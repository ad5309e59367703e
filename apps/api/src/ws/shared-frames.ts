import type { Duplex } from 'node:stream';
import type { ServerMessage } from '@renamer/contracts';
import type { WebSocket } from 'ws';
import * as ws from 'ws';

/*
 * Room events framed once: a room's event becomes one complete WebSocket text frame, and the same bytes are written
 * to every member's connection, where `socket.send` would build a header and cork, write twice and uncork per member.
 *
 * Why, measured with `npm run bench -- ws` (docs/benchmarks.md, "WebSocket fan-out"; 500 and 1,000 sockets, the
 * bare ws server of the same run as the baseline): at 2699b6e, on a quiet machine, API CPU per delivered event went
 * from 4.7-5.2 to 3.9-4.2 µs, 1.32-1.46 to 1.05-1.09 times the bare server's. Measured again on 2026-11-27 (issue 27,
 * runs interleaved on the busy machine, load average 4-13): 7.9-9.4 µs per delivered event (1.12-1.47 times the bare
 * server) with the shared frame in 5 runs, 9.4-12.7 µs (1.38-1.71) with `socket.send` per member in 3; it still pays.
 *
 * How, through public interfaces only: the frame is built by ws's `Sender.frame`, exported by ws for exactly this
 * (websockets/ws#1016: "a server broadcast where the same frame should be sent to all clients"; ws#1524 calls it
 * public) though @types/ws does not describe it, and written to the socket the upgrade request came on
 * (`request.raw.socket`, Node's `IncomingMessage.socket`, the very socket ws was handed in `handleUpgrade`).
 * It is right only while ws writes each message to that socket at once, in order: with no extension negotiated
 * (permessage-deflate queues messages; the server offers none) and never a Blob (the connection sends strings and
 * Buffers only). Without that socket, or with an extension, a connection falls back to `socket.send`.
 */

interface FrameOptions {
  fin: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
  rsv1: boolean;
}
const { Sender } = ws as unknown as { Sender: { frame(data: Buffer, options: FrameOptions): Buffer[] } };
/** A server's text frame: final, unmasked, uncompressed. */
const TEXT_FRAME: FrameOptions = { fin: true, opcode: 0x1, mask: false, readOnly: false, rsv1: false };

/** A room event as every member gets it: the whole frame, and its payload (the JSON) within the same bytes. */
export interface SharedFrame {
  readonly frame: Buffer;
  readonly payload: Buffer;
}

/** Serialises and frames a message once, however many sockets it goes to. */
export function frameOnce(message: ServerMessage): SharedFrame {
  const [header, payload] = Sender.frame(Buffer.from(JSON.stringify(message)), TEXT_FRAME) as [Buffer, Buffer];
  const frame = Buffer.concat([header, payload]);
  return { frame, payload: frame.subarray(header.length) };
}

/**
 * How one connection writes shared frames: straight to the upgrade request's socket `raw`, behind whatever ws has
 * written, or through ws's own `send` when that would not be right (no `raw`, or an extension negotiated).
 */
export function sharedFrameWriter(socket: WebSocket, raw: Duplex | undefined): (shared: SharedFrame) => void {
  if (!raw || socket.extensions !== '') return (shared) => socket.send(shared.payload, { binary: false });
  return (shared) => {
    raw.write(shared.frame);
  };
}
