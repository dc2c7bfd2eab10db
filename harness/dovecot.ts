// A real IMAP server for the mail tests and benchmark: Debian's dovecot-imapd started on loopback with a throwaway
// configuration in a temporary folder (its own base_dir, a passwd-file for users, maildirs in the
// folder, no SSL), on a free port, in the foreground (dovecot -F) so it ends with its process.
// Started as root (CI containers), its login processes run as dovenull and mail as dovecot, the
// users Debian's package creates; otherwise everything runs as the current user.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from './ports.js';

export const DOVECOT = '/usr/sbin/dovecot';

export interface Dovecot {
  port: number;
  user: string;
  pass: string;
  /** imap://user:pass@127.0.0.1:port/INBOX */
  url: string;
  /** Appends raw messages to the user's INBOX (as a mail server delivering them would). */
  deliver(...messages: Array<string | Buffer>): Promise<void>;
  /** UIDs and flags of the INBOX's messages. */
  messages(): Promise<Array<{ uid: number; flags: string[] }>>;
  stop(): Promise<void>;
}

function idsOf(name: string): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`user ${name} is missing: install dovecot-imapd (apt-get install -y dovecot-imapd)`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function config(dir: string, port: number, asRoot: boolean, mail: { uid: number; gid: number }): string {
  const me = os.userInfo().username;
  return `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${asRoot ? 'dovecot' : me}
default_login_user = ${asRoot ? 'dovenull' : me}
first_valid_uid = 1
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = passwd-file
  args = ${dir}/passwd
  default_fields = uid=${mail.uid} gid=${mail.gid} home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
}

async function connectable(port: number, user: string, pass: string, child: ChildProcess, log: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`dovecot exited: ${fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''}`);
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass }, logger: false });
    try {
      await client.connect();
      await client.logout();
      return;
    } catch (error) {
      client.close();
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function startDovecot(): Promise<Dovecot> {
  if (!fs.existsSync(DOVECOT)) throw new Error('dovecot is not installed: apt-get install -y dovecot-imapd');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dovecot-'));
  // The login processes (another user when started as root) reach their sockets under base_dir.
  fs.chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const mail = asRoot ? idsOf('dovecot') : { uid: process.getuid!(), gid: process.getgid!() };
  fs.mkdirSync(path.join(dir, 'mail'));
  fs.chownSync(path.join(dir, 'mail'), mail.uid, mail.gid);
  const user = 'support';
  const pass = 'inbox-secret';
  fs.writeFileSync(path.join(dir, 'passwd'), `${user}:{PLAIN}${pass}::::\n`);
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'dovecot.conf'), config(dir, port, asRoot, mail));
  const child = spawn(DOVECOT, ['-F', '-c', path.join(dir, 'dovecot.conf')], { stdio: 'ignore' });
  await connectable(port, user, pass, child, path.join(dir, 'dovecot.log'));

  const withClient = async <T>(fn: (c: ImapFlow) => Promise<T>): Promise<T> => {
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass }, logger: false });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  };
  return {
    port,
    user,
    pass,
    url: `imap://${user}:${pass}@127.0.0.1:${port}/INBOX`,
    deliver: (...messages) =>
      withClient(async (c) => {
        for (const m of messages) await c.append('INBOX', m);
      }),
    messages: () =>
      withClient(async (c) => {
        await c.mailboxOpen('INBOX');
        const out: Array<{ uid: number; flags: string[] }> = [];
        if (c.mailbox === false || c.mailbox.exists === 0) return out;
        for await (const m of c.fetch('1:*', { uid: true, flags: true }))
          out.push({ uid: m.uid, flags: [...(m.flags ?? [])] });
        return out;
      }),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
