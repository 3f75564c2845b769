import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { OutgoingMessage } from './store.ts';

/**
 * Where mail goes: the SMTP server of `SMTP_URL` (nodemailer), or without it one `.eml`
 * file per message under `<dataDir>/outbox/` (built by nodemailer's stream transport, so the
 * file is exactly what SMTP would have carried). Both throw when the message could not be
 * handed over; the worker then retries. Sent again after an interrupted attempt, a message
 * carries the same Message-ID (the SMTP receiver's de-duplication), and a message whose file
 * is already in the outbox directory is not written again.
 */
export interface MailTransport {
  deliver(message: OutgoingMessage): Promise<void>;
  close(): void;
}

function mailOptions(m: OutgoingMessage): SendMailOptions {
  return {
    from: m.from,
    to: m.to,
    cc: m.cc.length > 0 ? m.cc : undefined,
    subject: m.subject,
    text: m.text,
    messageId: m.messageId,
    attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.mediaType, content: a.data })),
  };
}

export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    async deliver(message) {
      await transporter.sendMail(mailOptions(message));
    },
    close() {
      transporter.close();
    },
  };
}

/** The file of a message in the outbox directory. */
export function emlFileName(messageRowId: number): string {
  return `message-${messageRowId}.eml`;
}

export function fileTransport(outboxDir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async deliver(message) {
      const file = join(outboxDir, emlFileName(message.id));
      // renamed into place whole: a file that exists is this message, written before a crash
      if (await exists(file)) return;
      const info = await transporter.sendMail(mailOptions(message));
      await mkdir(outboxDir, { recursive: true });
      // written whole or not at all: a crash leaves no half file behind
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
    },
    close() {},
  };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

export function mailTransport(config: { smtpUrl: string | undefined; dataDir: string }): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl) : fileTransport(join(config.dataDir, 'outbox'));
}
