// Every known-bad adapter: the reference with one classic bug each (tests/known-bad.test.ts).
import { COMPACTION_REVIEW_BUGS } from './compaction-review.ts'
import { FOLD_AND_RELATION_BUGS } from './folds-and-relations.ts'
import { FORK_REVIEW_BUGS } from './fork-review.ts'
import { JSONL_REVIEW_BUGS } from './jsonl-review.ts'
import { LOAD_AND_SURFACE_BUGS } from './load-and-surface.ts'
import { READER_REVIEW_BUGS } from './reader-review.ts'
import { REGION_AND_RESUME_BUGS } from './region-and-resume.ts'
import { RELATIONS_REVIEW_BUGS } from './relations-review.ts'
import { REPAIR_REVIEW_BUGS } from './repair-review.ts'
import { SECOND_IMPLEMENTATION_BUGS } from './second-implementation.ts'
import { STORAGE_BUGS } from './storage.ts'
import { STORAGE_REVIEW_BUGS } from './storage-review.ts'
import { SURFACE_REVIEW_BUGS } from './surface-review.ts'
import { VIEWS_REVIEW_BUGS } from './views-review.ts'
import type { KnownBad } from './wrap.ts'
import { WRITER_REVIEW_BUGS } from './writer-review.ts'

export const KNOWN_BAD: readonly KnownBad[] = [...LOAD_AND_SURFACE_BUGS, ...FOLD_AND_RELATION_BUGS, ...STORAGE_BUGS, ...SECOND_IMPLEMENTATION_BUGS, ...READER_REVIEW_BUGS, ...REGION_AND_RESUME_BUGS, ...COMPACTION_REVIEW_BUGS, ...FORK_REVIEW_BUGS, ...STORAGE_REVIEW_BUGS, ...VIEWS_REVIEW_BUGS, ...SURFACE_REVIEW_BUGS, ...REPAIR_REVIEW_BUGS, ...RELATIONS_REVIEW_BUGS, ...JSONL_REVIEW_BUGS, ...WRITER_REVIEW_BUGS]
