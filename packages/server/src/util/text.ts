import { checkEmail } from './safe-text.js';

// NUL cannot be stored in a PostgreSQL text column, and a lone surrogate is not Unicode at all:
// such strings are refused at the edge rather than failing (or being altered) in the database.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string can be stored and read back unchanged on both engines. */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/**
 * The key under which e-mail addresses and group names are unique regardless of case: the same on
 * every engine, for every script (not only A-Z), for both ways of writing an accented letter, and
 * for spaces around or doubled inside a name (` Acme  Ltd ` is `Acme Ltd` taken again).
 */
export function caseFold(value: string): string {
  return value.trim().replace(/\s+/g, ' ').normalize('NFC').toLowerCase();
}

const MAILBOX = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:.][^\s@"<>()[\]\\,;:]*$/;

/**
 * An address a platform user or the sender of mail may have: `local@domain`, where the domain
 * may be a bare host name (`admin@localhost`). Members' addresses are checked more strictly.
 * Invisible, bidirectional and look-alike characters are refused as for members (`checkEmail`);
 * store `canonicalEmail(value)`, the normalised address.
 */
export function isMailbox(value: string): boolean {
  return value.length <= 254 && MAILBOX.test(value) && checkEmail(value).ok;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * A request body as text, or undefined when it is not UTF-8 (JSON's only encoding, RFC 8259): a
 * body in another encoding would otherwise be stored with its letters replaced by U+FFFD.
 * A `charset` other than UTF-8 in the Content-Type is refused the same way.
 */
export function utf8Body(body: Buffer, contentType: string | undefined): string | undefined {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return undefined;
  try {
    return UTF8.decode(body);
  } catch {
    return undefined;
  }
}
