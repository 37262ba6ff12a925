import type { Selectable } from 'kysely';

/** A file uploaded to the console, kept between its check page and the confirmation. */
export interface ConsoleUploadTable {
  id: string;
  /** The session that uploaded it: no other session can see or confirm it. */
  session_id_hash: string;
  /** The file's name as the browser gave it. */
  name: string;
  content: string;
  /** JSON of the import's options (groupid, update). */
  options: string;
  /** JSON of the import's result once it ran; null before. */
  imported: string | null;
  created: string;
}
export type ConsoleUploadRow = Selectable<ConsoleUploadTable>;
