import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The sender's name: the brand of the tenant the mail comes from (common/brand.ts), shown at MAIL_FROM's address. */
  senderName: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** The address part of MAIL_FROM (`Name <address>` or a bare address): the name is always the tenant's brand. */
export function senderAddress(mailFrom: string): string {
  return /<([^<>]+)>\s*$/.exec(mailFrom)?.[1]?.trim() ?? mailFrom.trim();
}

/** The From header of a mail: `"The green app" <no-reply@localhost>`. */
export function fromHeader(senderName: string, mailFrom: string): string {
  return `"${senderName.replace(/["\\]/g, '\\$&')}" <${senderAddress(mailFrom)}>`;
}

/** SMTP when SMTP_URL is set; otherwise each mail is written as a file under DATA_DIR/mail/ for the operator to open. */
export function createMailer(opts: { smtpUrl?: string | undefined; from: string; outboxDir: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send({ senderName, ...mail }) {
        await transport.sendMail({ from: { name: senderName, address: senderAddress(opts.from) }, ...mail });
      },
    };
  }
  return {
    async send(mail) {
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to.replace(/[^A-Za-z0-9@._-]/g, '_')}.eml`;
      const text = `From: ${fromHeader(mail.senderName, opts.from)}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`;
      // Written aside and renamed: a disk that fills up mid-write leaves no half mail, and the outbox tries again.
      const file = path.join(opts.outboxDir, name);
      const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await fs.writeFile(temp, text);
        await fs.rename(temp, file);
      } catch (err) {
        await fs.rm(temp, { force: true }).catch(() => {});
        throw err;
      }
    },
  };
}

/** Keeps mails in memory: tests read the verification link from here. */
export class MemoryMailer implements Mailer {
  readonly sent: Mail[] = [];
  async send(mail: Mail): Promise<void> {
    this.sent.push(mail);
  }
}
