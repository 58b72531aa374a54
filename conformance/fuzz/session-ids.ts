// The session id the artifactPath probe asks for: half the time the log's own (`session-N`, which
// JSONL-2 keeps as it is, so the probe alone would never meet an escape), else one whose segment
// JSONL-2 escapes or refuses. Drawn from a seed of the run's plan, as the headerEquals pairs are
// (header-pairs.ts), so the fuzzer's other draws stay as they were. Every such id is a string a header
// may hold, and JSONL-2 defines its segment, so its disagreements are no variant.
import { saltedChooser } from '../generators/index.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const SESSION_ID_SALT = 0x53494431

/**
 * Ids JSONL-2 escapes: the two dot names, separators, `~` itself and a text that looks escaped, a
 * space, an accent composed and decomposed, a character beyond U+FFFF (two code units), a lone
 * surrogate, two letters a Unicode case-insensitive test takes for s and k, punctuation a file name
 * may hold, and an id too long for one file-system name, whose segment is never cut; and the empty
 * id, for which a segment is an error.
 */
export const ESCAPED_SESSION_IDS: readonly string[] = [
  '.', '..', 'a/b', 'a\\b', 'C:x', '~', '~002E', 'a b', 'é', 'e\u0301', '😀', 'x\ud800', '\u017F\u212A', 'a@b+c=d,e', 'a'.repeat(256), '',
]

/** The session id of the run's artifactPath probe: the header's own `id`, or one of ESCAPED_SESSION_IDS. */
export function probedSessionId(planSeed: number, ownId: unknown): unknown {
  const chooser = saltedChooser(planSeed, SESSION_ID_SALT)
  return chooser.int(2) === 0 ? ownId : ESCAPED_SESSION_IDS[chooser.int(ESCAPED_SESSION_IDS.length)]
}
