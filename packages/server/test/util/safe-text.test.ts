import { describe, expect, test } from 'vitest';
import {
  asOneLine,
  canonicalEmail,
  checkEmail,
  cleanLines,
  isolate,
  lineProblem,
  mixedScripts,
} from '../../src/util/safe-text.js';
import { isMailbox } from '../../src/util/text.js';

describe('checkEmail', () => {
  test('normalises the domain and is idempotent', () => {
    for (const [given, stored] of [
      ['a@example.com', 'a@example.com'],
      ['a@Example.COM.', 'a@Example.COM'],
      ['a@bücher.de', 'a@xn--bcher-kva.de'],
      ['a@BÜCHER.de.', 'a@xn--bcher-kva.de'],
      ['a@XN--BCHER-KVA.de', 'a@xn--bcher-kva.de'],
      ['info@пример.рф', 'info@xn--e1afmkfd.xn--p1ai'],
      ['山田@例え.jp', '山田@xn--r8jz45g.jp'],
      ['élodie@example.com', 'élodie@example.com'],
    ]) {
      const checked = checkEmail(given as string);
      expect(checked, given).toEqual({ ok: true, value: stored });
      expect(checkEmail(stored as string), stored).toEqual({ ok: true, value: stored });
      expect(canonicalEmail(` ${given} `)).toBe(stored);
    }
  });

  test('allows the script mixes one language writes, refuses others', () => {
    expect(mixedScripts('yamada山田やまだヤマダ')).toBeUndefined();
    expect(mixedScripts('kim김민준')).toBeUndefined();
    expect(mixedScripts('дмитрий.2000')).toBeUndefined();
    expect(mixedScripts('p\u0430ypal')).toEqual(['Latin', 'Cyrillic']);
    expect(mixedScripts('\u0430pple')).toEqual(['Latin', 'Cyrillic']);
  });

  test('isMailbox (platform users, sign-up forms, MAIL_FROM) refuses the same characters', () => {
    expect(isMailbox('admin@localhost')).toBe(true);
    expect(isMailbox('a@bücher.de')).toBe(true);
    for (const bad of [
      'a\u200B@example.com',
      'a@example.com\u202E',
      'p\u0430ypal@example.com',
      '\uFF41@example.com',
    ]) {
      expect(isMailbox(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('one line and many', () => {
  test('lineProblem allows real names and the joiners they need', () => {
    for (const name of ['José', "D'Angelo", 'Jean-Luc', 'محمد', 'שרה', '山田', 'می\u200Cخواهم', '❤\uFE0F']) {
      expect(lineProblem(name), name).toBeUndefined();
    }
  });

  test('cleanLines keeps line breaks and tabs, drops other control characters', () => {
    expect(cleanLines('a\r\nb\rc\u0085d\u2028e\u2029f\tg\u0000h\u001Bi\u007Fj\u009Fk')).toBe(
      'a\nb\nc\nd\ne\nf\tghijk',
    );
  });

  test('asOneLine and isolate', () => {
    expect(asOneLine('Ada\r\n  Lovelace\u2028')).toBe('Ada Lovelace');
    expect(isolate('Ada')).toBe('Ada');
    expect(isolate('محمد')).toBe('\u2068محمد\u2069');
    expect(isolate('x\u202E')).toBe('\u2068x\u202E\u2069');
    expect(isolate('')).toBe('');
  });
});
