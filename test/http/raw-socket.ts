import net from 'node:net';

export interface BlastOutcome {
  /** What the server sent before the connection ended. */
  received: string;
  /** Body bytes handed to the socket before the server closed it (includes what sat in kernel buffers). */
  sent: number;
  closedByServer: boolean;
}

/**
 * Sends `head` (request line and headers) and then up to `bodyBytes` of body as fast as the socket takes it, and
 * reports how much went out before the server closed the connection. A server that reads a refused body to the end
 * takes all of it; one that closes politely takes little.
 */
export function blast(baseUrl: string, head: string, bodyBytes: number, opts: { waitForCloseMs?: number } = {}) {
  const { port } = new URL(baseUrl);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return new Promise<BlastOutcome>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const received: Buffer[] = [];
    let sent = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received: Buffer.concat(received).toString('latin1'), sent, closedByServer });
    };
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') finish(true);
      else reject(error);
    });
    const pump = () => {
      while (!settled && sent < bodyBytes) {
        const slice = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
        sent += slice.length;
        if (!socket.write(slice)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (!settled && sent >= bodyBytes) timer = setTimeout(() => finish(false), opts.waitForCloseMs ?? 3000);
    };
    socket.on('connect', () => {
      socket.write(head);
      pump();
    });
  });
}
