export { OAuthError, TokenData, TokenRequest } from './auth.js';
export {
  CoercedBoolean,
  DateTime,
  DupecheckBody,
  ErrorEnvelope,
  Extra,
  HttpErrorBody,
  Id,
  ListQuery,
  NullableString,
  ObjectOrEmptyArray,
  Ok,
  OkEmpty,
  SCOPES,
  type Scope,
} from './common.js';
export { GROUP_TYPES, Group, GroupConfig, GroupCreate, GroupPatch } from './groups.js';
export {
  GroupedMember,
  GroupMember,
  MEMBER_LEVELS,
  MEMBER_WRITE_FIELDS,
  MemberCreate,
  MemberDetail,
  MemberImport,
  MemberImportResult,
  MemberListItem,
  MemberPatch,
} from './members.js';
export {
  ClientConfig,
  ClientConfigShort,
  Datastructure,
  DatastructureQuery,
  DatastructureQuestion,
  ReportAliasParams,
  ReportTextsParams,
  ReportVariant,
  ReportVariants,
  TextKeys,
  Texts,
  VariantRole,
} from './settings.js';
