// The timeline of the HTML report told in words, for a reader who cannot see the picture (a screen
// reader, a text browser) or wants what its tooltips hold: the turns and how they ended, each
// compaction bracket with its outcome, the end-seeds, the failed model calls and the current surface.
import type { AuditReplacement, AuditTimeline } from '../../generated/types/index.ts'
import { plural, printable, QUOTE_MOST, shortened } from '../wording.ts'

/** The most entries one line lists; the JSON report holds every one. */
export const LISTED_MOST = 50

/** `entries` joined by ", ", the first LISTED_MOST of them, then how many more there are. */
function listed(entries: readonly string[]): string {
  const shownEntries = entries.slice(0, LISTED_MOST).join(', ')
  return entries.length > LISTED_MOST ? `${shownEntries} and ${entries.length - LISTED_MOST} more (the JSON report lists every one)` : shownEntries
}

/**
 * "3 completed, 1 interrupted": how many of `values` each distinct value is, in order of first
 * appearance, at most LISTED_MOST of them. A value is text of the log (a turn-end reason's kind), cut
 * when long and escaped.
 */
function tally(values: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return listed([...counts].map(([value, count]) => `${count} ${printable(shortened(value, QUOTE_MOST))}`))
}

function turnsLine(timeline: AuditTimeline): string {
  const { turns } = timeline
  if (turns.length === 0) return 'Turns: none.'
  const ended = turns.filter(turn => turn.endSeq !== null).map(turn => turn.endReason ?? 'no reason kind')
  const open = turns.filter(turn => turn.endSeq === null).map(turn => `turn ${turn.turn ?? '?'} from seq ${turn.startSeq}`)
  const endings = ended.length === 0 ? 'none ended' : `ended: ${tally(ended)}`
  return `Turns: ${turns.length}, ${endings}${open.length === 0 ? '' : `; open: ${listed(open)}`}.`
}

function bracketsLine(timeline: AuditTimeline): string {
  const { brackets } = timeline
  if (brackets.length === 0) return 'Compaction brackets: none.'
  const entries = brackets.map(bracket => {
    const id = bracket.compactionId === null ? '' : ` (compaction ${printable(shortened(bracket.compactionId, QUOTE_MOST))})`
    return `seq ${bracket.startSeq}…${bracket.endSeq ?? 'no end'} ${bracket.outcome}${id}`
  })
  return `Compaction brackets: ${brackets.length} (${tally(brackets.map(bracket => bracket.outcome))}): ${listed(entries)}.`
}

function endSeedsLine(timeline: AuditTimeline): string {
  const { endSeeds } = timeline
  return endSeeds.length === 0 ? 'Session end-seeds: none.' : `Session end-seeds at seq ${listed(endSeeds.map(String))}.`
}

function failuresLine(timeline: AuditTimeline): string {
  const { modelFailures } = timeline
  if (modelFailures.length === 0) return 'Model calls that failed: none.'
  const entries = modelFailures.map(failure => `seq ${failure.seq}${failure.code === null ? '' : ` (${printable(shortened(failure.code, QUOTE_MOST))})`}`)
  return `Model calls that failed: ${listed(entries)}.`
}

function surfaceLine(timeline: AuditTimeline, replacements: readonly AuditReplacement[]): string {
  const nodes = timeline.finalSurface
  const replaces = replacements.length === 0 ? 'no replace' : `${plural(replacements.length, 'replace')}, listed in the table below`
  return `Current surface: ${plural(nodes.length, 'node')} after ${replaces}${nodes.length === 0 ? '' : `; in surface order, seq ${listed(nodes.map(String))}`}.`
}

/** The timeline in five lines of text; each line's values are escaped as `printable` escapes them. */
export function timelineText(timeline: AuditTimeline, replacements: readonly AuditReplacement[]): string[] {
  return [turnsLine(timeline), bracketsLine(timeline), endSeedsLine(timeline), failuresLine(timeline), surfaceLine(timeline, replacements)]
}
