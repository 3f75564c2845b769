/**
 * A real SMTP server on loopback for the mail tests (smtp-server), with every message it
 * receives parsed by postal-mime. `stop()` and `start()` again on the same port simulate an
 * SMTP outage. `beforeAccept` runs while a message has arrived but is not yet answered (what the
 * sender has recorded by then).
 */
import type { AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelopeTo: string[];
  raw: Buffer;
  parsed: Email;
}

export interface SmtpTestServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startSmtpTestServer(
  options: { beforeAccept?: (mail: ReceivedMail) => Promise<void> } = {},
): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  let port = 0;
  const listen = async () => {
    const s = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          PostalMime.parse(raw).then(
            async (parsed) => {
              const mail = { envelopeTo: session.envelope.rcptTo.map((r) => r.address), raw, parsed };
              received.push(mail);
              await options.beforeAccept?.(mail);
              callback();
            },
            (err: Error) => callback(err),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.server.address() as AddressInfo).port;
    server = s;
  };
  await listen();
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    start: listen,
    async stop() {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
