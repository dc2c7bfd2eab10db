// The mail settings refuse what would be unsafe or meaningless, with a line naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('mail settings', () => {
  it('accepts imaps:// anywhere and imap:// on loopback only, always with a user', () => {
    expect(loadConfig({ MAIL_INBOX_URL: 'imaps://u:p@imap.example.com/INBOX' }).MAIL_INBOX_URL).toBe(
      'imaps://u:p@imap.example.com/INBOX',
    );
    expect(loadConfig({ MAIL_INBOX_URL: 'imap://u:p@127.0.0.1:1143/INBOX' }).MAIL_INBOX_URL).toContain('imap://');
    expect(() => loadConfig({ MAIL_INBOX_URL: 'imap://u:p@imap.example.com/INBOX' })).toThrow(/loopback host only/);
    expect(() => loadConfig({ MAIL_INBOX_URL: 'imaps://imap.example.com/INBOX' })).toThrow(/with a user name/);
    expect(() => loadConfig({ MAIL_INBOX_URL: 'https://x' })).toThrow(ConfigError);
  });

  it('wants a reply key of 16 characters or more, never echoing it, and a domain name', () => {
    expect(() => loadConfig({ MAIL_REPLY_KEY: 'short-secret' })).toThrow(
      /MAIL_REPLY_KEY must be a secret of at least 16 characters \(got "\(hidden\)"\)/,
    );
    expect(loadConfig({ MAIL_REPLY_KEY: '' }).MAIL_REPLY_KEY).toBeUndefined();
    expect(loadConfig({ MAIL_REPLY_DOMAIN: 'Help.Example.org' }).MAIL_REPLY_DOMAIN).toBe('help.example.org');
    expect(() => loadConfig({ MAIL_REPLY_DOMAIN: 'not a domain' })).toThrow(/MAIL_REPLY_DOMAIN/);
    expect(loadConfig({ MAIL_TRUSTED_AUTHSERV_ID: 'MX.Google.com' }).MAIL_TRUSTED_AUTHSERV_ID).toBe('mx.google.com');
    expect(loadConfig({}).MAIL_TRUSTED_AUTHSERV_ID).toBeUndefined();
    expect(() => loadConfig({ MAIL_TRUSTED_AUTHSERV_ID: 'mx.google.com; dmarc=pass' })).toThrow(
      /MAIL_TRUSTED_AUTHSERV_ID/,
    );
  });
});
