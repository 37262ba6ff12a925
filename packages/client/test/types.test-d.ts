import type * as S from '@assay/schema';
import type { Static } from 'typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AssayClient,
  CampaignDetail,
  CampaignMember,
  Group,
  GroupCreate,
  MemberCreate,
  MemberDetail,
  MemberReport,
  Report,
  ReportData,
} from '../src/index.js';

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

/**
 * Checked by the compiler under `npm run lint` (`tsc -p packages/client/tsconfig.test.json`): every result is assignable
 * to its schema type, and the fields the client normalises need no narrowing.
 */
describe('result types', () => {
  it('are assignable to the schema types', () => {
    expectTypeOf<MemberDetail>().toExtend<Static<typeof S.MemberDetail>>();
    expectTypeOf<Group>().toExtend<Static<typeof S.Group>>();
    expectTypeOf<CampaignDetail>().toExtend<Static<typeof S.CampaignDetail>>();
    expectTypeOf<CampaignMember>().toExtend<Static<typeof S.CampaignMember>>();
    expectTypeOf<Report>().toExtend<Static<typeof S.Report>>();
    expectTypeOf<MemberReport>().toExtend<Static<typeof S.MemberReport>>();
    expectTypeOf<ReportData>().toExtend<Static<typeof S.ReportData>>();
    // The enumerations come out of the schema as unions of their values.
    expectTypeOf<Report['type']>().toEqualTypeOf<
      'personal' | 'group' | 'groupanon' | 'condensed' | 'complete'
    >();
    expectTypeOf<NonNullable<MemberCreate['level']>>().toEqualTypeOf<(typeof S.MEMBER_LEVELS)[number]>();
    expectTypeOf<NonNullable<GroupCreate['type']>>().toEqualTypeOf<'company' | 'team' | 'folder'>();
    expectTypeOf<Result<AssayClient['members']['list']>>().toExtend<Static<typeof S.MemberListItem>[]>();
    expectTypeOf<Result<AssayClient['campaigns']['members']>>().toExtend<
      Static<typeof S.CampaignMemberListItem>[]
    >();
    expectTypeOf<Result<AssayClient['reports']['counts']>>().toExtend<Static<typeof S.ReportCounts>>();
    expectTypeOf<Result<AssayClient['settings']['reportVariants']>>().toExtend<
      Static<typeof S.ReportVariants>
    >();
  });

  it('narrow "object or []" to the object, except a campaign member\'s results', () => {
    expectTypeOf<MemberDetail['extra']>().toEqualTypeOf<Static<typeof S.Extra>>();
    expectTypeOf<CampaignDetail['config']['maxparticipants']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Group['config']['selfregistration']>().toEqualTypeOf<
      { signup?: boolean; register?: boolean } | undefined
    >();
    expectTypeOf<CampaignMember['mailconfig']>().not.toExtend<unknown[]>();
    expectTypeOf<CampaignMember['results']>().toEqualTypeOf<Static<typeof S.CampaignMember>['results']>();
    expectTypeOf<CampaignMember['tags']>().toEqualTypeOf<string[]>();
    expectTypeOf<Report['config']>().toEqualTypeOf<Record<string, unknown>>();
  });

  it("keep the spec's types for testuser, testcase and counts", () => {
    expectTypeOf<MemberDetail['testuser']>().toEqualTypeOf<boolean>();
    expectTypeOf<CampaignMember['testuser']>().toEqualTypeOf<'0' | '1'>();
    expectTypeOf<Report['testcase']>().toEqualTypeOf<'0' | '1'>();
    expectTypeOf<CampaignMember['countreminded']>().toEqualTypeOf<string | null>();
  });
});
