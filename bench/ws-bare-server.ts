/**
 * The baseline of bench/ws.ts: a bare `ws` server doing the least a fan-out needs. It forwards every
 * message of the progress channel, as published, to every socket: one Buffer per event, sent to each as
 * a text frame. It answers /health/ready so that startService can wait for it.
 */
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { progressChannel } from '../packages/progress/src/progress-channel';
import { ws } from './support';

const { WebSocketServer } = ws;

const server = createServer((_request, response) => response.writeHead(200).end('ok'));
const sockets = new WebSocketServer({ server });
const subscriber = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
subscriber.on('messageBuffer', (_channel: Buffer, message: Buffer) => {
  for (const socket of sockets.clients) socket.send(message, { binary: false });
});
await subscriber.subscribe(progressChannel(process.env.REDIS_PREFIX ?? ''));
server.listen(Number(process.env.PORT), '127.0.0.1');

process.once('SIGTERM', () => {
  for (const socket of sockets.clients) socket.terminate();
  subscriber.disconnect();
  server.close(() => process.exit(0));
});
