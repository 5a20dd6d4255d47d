/** A page that never answers (robots.txt: none), so Chromium is still loading it when a test stops the command. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HangingPage {
  /** The page's URL, on a *.localhost name of 127.0.0.1. */
  readonly url: string;
  /** How many requests for the page came so far. */
  hits(): number;
  /** Forget the hits so far. */
  resetHits(): void;
  close(): void;
}

export async function serveHangingPage(): Promise<HangingPage> {
  let hits = 0;
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') res.writeHead(404).end();
    else hits++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://hang.localhost:${(server.address() as AddressInfo).port}/story.html`,
    hits: () => hits,
    resetHits: () => void (hits = 0),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
