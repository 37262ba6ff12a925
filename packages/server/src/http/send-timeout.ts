import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Cuts off clients too slow to take an answer: a socket whose written data has waited to drain for
 * `seconds` (the client reads nothing, or too little to empty one write in that time) is destroyed.
 * A client that keeps taking data is never cut off, however long its whole answer takes: the clock
 * starts again at each drain. An idle keep-alive connection owes nothing and is left alone, and so
 * is a request the server is still working on. 0 turns the cut-off off.
 *
 * One timer per server, running only while connections are open, looks at every socket a few times
 * per timeout (so a cut-off comes between `seconds` and 1.25 x `seconds`); each socket costs a
 * listener and two fields, nothing per write.
 */
export function cutOffSlowReaders(server: Server, seconds: number): void {
  if (seconds <= 0) return;
  const limitMs = seconds * 1000;
  const everyMs = Math.min(1000, limitMs / 4);
  // Since when each socket has had data waiting for the client (0: nothing waiting).
  const waiting = new Map<Socket, number>();
  let timer: NodeJS.Timeout | undefined;

  const check = () => {
    const now = performance.now();
    for (const [socket, since] of waiting) {
      if (!socket.writableNeedDrain) waiting.set(socket, 0);
      else if (since === 0) waiting.set(socket, now);
      else if (now - since >= limitMs) socket.destroy();
    }
  };

  server.on('connection', (socket: Socket) => {
    waiting.set(socket, 0);
    socket.on('drain', () => waiting.set(socket, 0));
    socket.once('close', () => {
      waiting.delete(socket);
      if (waiting.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    });
    if (!timer) {
      timer = setInterval(check, everyMs);
      timer.unref();
    }
  });
}
