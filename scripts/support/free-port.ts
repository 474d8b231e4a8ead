import net from "node:net";

/**
 * A loopback port nobody listens on now (the kernel picks one), never one of `avoid` (a server that
 * is about to start on a configured port, such as the e2e server's, would otherwise collide).
 */
export async function freePort(...avoid: number[]): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.once("error", reject);
      srv.listen(0, "127.0.0.1", () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    if (!avoid.includes(port)) return port;
  }
}
