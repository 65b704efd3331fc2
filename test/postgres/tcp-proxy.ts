import net from 'node:net';

/**
 * A loopback TCP proxy the test controls, placed between the service and PostgreSQL: `cut()` resets every open
 * connection and refuses new ones (a crashed or unreachable database, as the service sees it), `restore()` lets
 * traffic through again. The shared PostgreSQL server itself is never stopped.
 */
export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;
  private up = true;
  port = 0;

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => this.accept(client));
  }

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    proxy.port = (proxy.server.address() as net.AddressInfo).port;
    return proxy;
  }

  /** A copy of `url` that reaches the same database through this proxy. */
  route(url: string): string {
    const routed = new URL(url);
    routed.hostname = '127.0.0.1';
    routed.port = String(this.port);
    return routed.toString();
  }

  private accept(client: net.Socket): void {
    if (!this.up) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(this.target.port, this.target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** Every open connection is reset and new ones are refused until restore(). */
  cut(): void {
    this.up = false;
    for (const socket of this.sockets) {
      try {
        socket.resetAndDestroy();
      } catch {
        socket.destroy();
      }
    }
    this.sockets.clear();
  }

  restore(): void {
    this.up = true;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
