// Row 3, constraint preservation: whether a summary keeps the file state, user limits, open goals and
// key decisions of what it shadowed. No check can decide that; the row says so and lists every
// replacement with the range it shadowed and its text, for a person to read (report.replacements).
import type { AuditReplacement, AuditRow } from '../../generated/types/index.ts'
import { KIND_LABELS } from './format.ts'
import { seqList } from './log.ts'
import { plural } from '../wording.ts'
import type { TokenCounter } from './tokens.ts'
import { capped, evidence, REPLACE_ITEMS_LISTED, row } from './verdicts.ts'

export const CANNOT_DECIDE = 'The tool cannot decide whether a summary preserves the constraints of what it shadowed: it lists each replacement with its shadowed range and its text, and a person has to read them.'

/** `token`: the word a count is in, singular ("estimated token" when the counts are estimates). */
function replacementLine(replacement: AuditReplacement, token: string): string {
  const outcome = replacement.bracketOutcome === null ? '' : ` (bracket ${replacement.bracketOutcome})`
  return `${KIND_LABELS[replacement.kind]} seq ${replacement.seq}${outcome} replaced ${replacement.start}…${replacement.end}: `
    + `${plural(replacement.shadowed.length, 'message')} (${replacement.shadowedSeqs.length === 1 ? 'seq' : 'seqs'} ${seqList(replacement.shadowedSeqs)}; ${plural(replacement.shadowedTokens, token)}) became ${plural(replacement.tokens, token)} of text; `
    + 'read the summary against the shadowed text for file state, user limits, open goals and key decisions'
}

export function constraintRow(replacements: readonly AuditReplacement[], counter: TokenCounter): AuditRow {
  const token = counter.kind === 'estimate' ? 'estimated token' : 'token'
  if (replacements.length === 0) {
    return row('constraint-preservation', [evidence('pass', 'no replace in the log: nothing was shadowed, so nothing had to be preserved')], () => 'Nothing was replaced, so no constraint could be lost.')
  }
  const items = replacements.flatMap(replacement => [
    evidence('human', replacementLine(replacement, token), { seq: replacement.seq, requirements: ['SURF-6', 'COMP-12'] }),
    ...(replacement.absentTerms.length === 0 ? [] : [
      evidence('info', `terms of the shadowed text that seq ${replacement.seq} does not mention (a reading aid, not a verdict): ${replacement.absentTerms.join(', ')}`, { seq: replacement.seq }),
    ]),
  ])
  const summary = `${plural(replacements.length, 'replacement')} to read: only a person can judge whether the summaries keep the constraints.`
  return row('constraint-preservation', [evidence('info', CANNOT_DECIDE), ...capped(items, REPLACE_ITEMS_LISTED)], () => summary, 'human')
}
