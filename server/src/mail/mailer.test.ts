import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMailer, fromHeader, senderAddress } from './mailer';

const dirs: string[] = [];
const outbox = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-mail-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const mail = {
  to: 'ann@example.test',
  subject: 'Confirm your email address',
  text: 'Hello',
  senderName: 'The green app',
};
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('the sender of a mail', () => {
  it("is the tenant's brand at MAIL_FROM's address, whatever name MAIL_FROM carries", () => {
    expect(fromHeader('The green app', 'no-reply@localhost')).toBe('"The green app" <no-reply@localhost>');
    expect(fromHeader('The ultimate flex', 'The Wall <wall@example.test>')).toBe(
      '"The ultimate flex" <wall@example.test>',
    );
    expect(senderAddress(' mail@example.test ')).toBe('mail@example.test');
  });

  it('is written in the From line of each mail file', async () => {
    const dir = outbox();
    await createMailer({ from: 'no-reply@localhost', outboxDir: dir }).send(mail);
    const [file] = fs.readdirSync(dir);
    expect(fs.readFileSync(path.join(dir, file!), 'utf8')).toMatch(/^From: "The green app" <no-reply@localhost>\n/);
  });
});

describe('the file mailer on a full disk', () => {
  it('fails the send and leaves no partial file behind', async () => {
    const dir = outbox();
    const write = fsp.writeFile;
    vi.spyOn(fsp, 'writeFile').mockImplementation(async (file, data) => {
      await write(file, String(data).slice(0, 10)); // part of it landed, then the disk was full
      throw enospc();
    });
    await expect(createMailer({ from: 'no-reply@localhost', outboxDir: dir }).send(mail)).rejects.toThrow('ENOSPC');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
