import type { Group } from '@assay/schema';
import { describe, expect, it } from 'vitest';
import { membersStrings } from '../../src/console/members-strings.js';
import { flatten, groupMoveView, groupsView, groupTree } from '../../src/console/views/groups.view.js';
import { CHECK_ROWS_SHOWN, importCheckView, rowsToShow } from '../../src/console/views/import.view.js';
import {
  errorOf,
  errorsOf,
  memberFormView,
  memberListHref,
  memberListView,
  memberName,
} from '../../src/console/views/members.view.js';
import { LANGUAGES } from '../../src/variants/variant.types.js';

const viewer = { language: 'enUS' as const, path: '/console/members', csrf: 'token' };

const row = (id: string, email: string) => ({
  id,
  firstname: 'Ada',
  middlename: '',
  lastname: 'Lovelace',
  email,
  email_key: email,
  status: 'active',
  group_id: null,
  group_name: null,
});

const group = (groupid: string, name: string, parentgroup = 'root', membercount = 0): Group => ({
  groupid,
  alias: groupid,
  name,
  description: null,
  parentgroup,
  type: null,
  status: 'active',
  config: [],
  created: '2026-11-26T00:00:00+00:00',
  creator: null,
  accesstype: 'editor',
  extra: [],
  membercount,
});

describe('member views', () => {
  it('names a member by its parts, skipping the empty ones', () => {
    expect(memberName({ title: '', firstname: 'Ada', middlename: ' ', lastname: 'Lovelace' })).toBe(
      'Ada Lovelace',
    );
    expect(memberName({ title: 'Dr', firstname: 'A', middlename: 'B', lastname: 'C' })).toBe('Dr A B C');
  });

  it('puts a business error next to its field, else next to the first', () => {
    expect(errorOf('email: already exists', ['firstname', 'email'])).toEqual({
      field: 'email',
      text: 'email: already exists',
    });
    expect(errorOf('Access denied', ['firstname', 'email']).field).toBe('firstname');
    expect(errorOf('extra.team: must be a string', ['email', 'extra']).field).toBe('extra');
  });

  it('puts each problem of a refusal next to its field when each names one field of the form', () => {
    const fields = ['firstname', 'lastname', 'email'];
    expect(errorsOf('lastname: is required; email: must be a valid e-mail address', fields)).toEqual([
      { field: 'lastname', text: 'lastname: is required' },
      { field: 'email', text: 'email: must be a valid e-mail address' },
    ]);
    // A problem of a field the form does not show: the whole message, by the first field.
    expect(errorsOf('lastname: is required; status: must be one of active, inactive', fields)).toEqual([
      { field: 'lastname', text: 'lastname: is required; status: must be one of active, inactive' },
    ]);
    expect(errorsOf('email: already exists', fields)).toEqual([errorOf('email: already exists', fields)]);
    const view = memberFormView(viewer, {
      values: { firstname: 'A' },
      error: 'lastname: is required; email: must be a valid e-mail address',
    });
    expect(view.model.errors).toEqual([
      { href: '#field-lastname', text: 'lastname: is required' },
      { href: '#field-email', text: 'email: must be a valid e-mail address' },
    ]);
  });

  it('links the pages of the list by the member to page from, keeping the search', () => {
    expect(memberListHref(undefined)).toBe('/console/members');
    expect(memberListHref('ad a', { after: 'AAAAAAAAAA' })).toBe('/console/members?q=ad+a&after=AAAAAAAAAA');
    const view = memberListView(viewer, {
      q: 'ad',
      page: { rows: [row('A1', 'a@example.test')], previous: 'A1', next: 'A1' },
    });
    expect(view.model.pagination).toEqual({
      previous: '/console/members?q=ad&before=A1',
      next: '/console/members?q=ad&after=A1',
    });
    expect(view.model.caption).toBe('Members whose e-mail address or name starts with “ad”');
  });

  it('says what to do with no member, and what was searched with no result', () => {
    const none = memberListView(viewer, { page: { rows: [] } });
    expect(none.model.empty).toBe(membersStrings('enUS').noMembersYet);
    const noResult = memberListView(viewer, { q: '<b>', page: { rows: [] } });
    expect(noResult.model.empty).toBe('No member’s e-mail address or name starts with “<b>”.');
  });

  it('marks the optional fields and describes a failed one by its error', () => {
    const view = memberFormView(viewer, {
      values: { email: 'x' },
      error: 'email: must be a valid e-mail address',
    });
    const fields = view.model.fields as {
      name: string;
      label: string;
      describedBy?: string;
      error?: string;
    }[];
    expect(fields.find((f) => f.name === 'title')?.label).toBe('Title (optional)');
    expect(fields.find((f) => f.name === 'email')?.describedBy).toBe('field-email-error');
    expect(view.model.errors).toEqual([
      { href: '#field-email', text: 'email: must be a valid e-mail address' },
    ]);
  });
});

describe('group views', () => {
  const groups = [
    group('C', 'Child', 'P', 2),
    group('P', 'Parent'),
    group('G', 'Grandchild', 'C', 1),
    group('O', 'Orphan', 'GONE'),
    group('A', 'Another'),
  ];

  it('builds the tree from the flat list, by name, an orphan at the top', () => {
    const tree = groupTree(groups);
    expect(tree.map((node) => node.group.name)).toEqual(['Another', 'Orphan', 'Parent']);
    expect(flatten(tree).map((node) => [node.group.name, node.depth])).toEqual([
      ['Another', 0],
      ['Orphan', 0],
      ['Parent', 0],
      ['Child', 1],
      ['Grandchild', 2],
    ]);
    const view = groupsView(viewer, groups);
    const parent = (
      view.model.tree as { name: string; children: { count: string; membersHref?: string }[] }[]
    )[2];
    expect(parent?.children[0]?.count).toBe('2 members');
    expect(parent?.children[0]?.membersHref).toBe('/console/groups/C/members');
  });

  it('offers no place below the group itself to move it to', () => {
    const view = groupMoveView(viewer, group('P', 'Parent'), groups, { parentgroup: 'root' });
    const values = ((view.model.select as { options: { value: string }[] }).options ?? []).map(
      (o) => o.value,
    );
    expect(values).toEqual(['root', 'A', 'O']);
  });
});

describe('import views', () => {
  const names = ['email', 'firstname', 'lastname'];
  it('shows the first rows with errors, each with its problem, and says when there are more', () => {
    const errors = Array.from({ length: CHECK_ROWS_SHOWN + 5 }, (_, i) => ({
      row: i + 1,
      message: `email: bad ${i}`,
    }));
    const result = { created: [], updated: [], errors };
    expect(rowsToShow(result).size).toBe(CHECK_ROWS_SHOWN);
    const view = importCheckView(viewer, {
      id: 'u',
      name: 'f.csv',
      result,
      names,
      rows: new Map([[1, ['x', 'A', 'B']]]),
    });
    expect(view.model.failed).toBe(true);
    expect(view.model.canImport).toBe(false);
    expect(view.model.onlyFirstErrors).toBe(`Only showing the first ${CHECK_ROWS_SHOWN} rows with errors`);
    expect((view.model.errorRows as unknown[]).length).toBe(CHECK_ROWS_SHOWN);
    expect((view.model.errorRows as { cells: string[] }[])[0]?.cells).toEqual(['x', 'A', 'B']);
  });

  it('counts the members to import on its button', () => {
    const one = importCheckView(viewer, {
      id: 'u',
      name: 'f.csv',
      result: { created: ['a'], updated: [], errors: [] },
      names,
      rows: new Map(),
    });
    expect(one.model.importButton).toBe('Import 1 member');
    const many = importCheckView(
      { ...viewer, language: 'frFR' },
      {
        id: 'u',
        name: 'f.csv',
        result: { created: ['a', 'b'], updated: ['c'], errors: [] },
        names,
        rows: new Map(),
      },
    );
    expect(many.model.importButton).toBe('Importer 3 participants');
  });
});

describe('members strings', () => {
  it('has every word in every language, translated', () => {
    const english = membersStrings('enUS');
    for (const language of LANGUAGES) {
      const words = membersStrings(language);
      for (const [key, value] of Object.entries(english)) {
        const text = (words as unknown as Record<string, string>)[key] ?? '';
        expect(typeof text, `${language} ${key}`).toBe('string');
        expect(text.trim().length > 0 || key === 'optional', `${language} ${key}`).toBe(true);
        // Placeholders are the same in every language.
        expect(text.match(/\{\w+\}/g)?.sort(), `${language} ${key}`).toEqual(value.match(/\{\w+\}/g)?.sort());
      }
      if (language !== 'enUS') expect(words.importTitle).not.toBe(english.importTitle);
    }
  });
});
