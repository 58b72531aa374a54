// The data of the surface timeline: over the seqs of the log, the turns, the compaction brackets and
// their outcomes, the resumption markers, the model calls that failed and the current surface. The
// replaces themselves are report.replacements; render-html.ts draws both.
import type { AuditTimeline, AuditTimelineTurn } from '../../generated/types/index.ts'
import { dataOf, recordAt, stringAt, type LoadedLog } from './log.ts'
import { endError, modelFailures } from './row-recovery.ts'

function turnsOf(loaded: LoadedLog): AuditTimelineTurn[] {
  const turns: AuditTimelineTurn[] = []
  let open: AuditTimelineTurn | undefined
  for (const event of loaded.events) {
    if (event.type === 'turn/start') {
      const turn = dataOf(event)['turn']
      open = { turn: typeof turn === 'number' ? turn : null, startSeq: event.seq, endSeq: null, endReason: null }
      turns.push(open)
    } else if (event.type === 'turn/end' && open !== undefined) {
      open.endSeq = event.seq
      open.endReason = stringAt(recordAt(dataOf(event), 'reason'), 'kind') ?? null
      open = undefined
    }
  }
  return turns
}

export function auditTimeline(loaded: LoadedLog): AuditTimeline {
  const { events } = loaded
  return {
    eventTypes: events.map(event => event.type),
    firstTime: events[0]?.time ?? null,
    lastTime: events.at(-1)?.time ?? null,
    finalSurface: loaded.surface.nodes,
    generation: loaded.surface.generation,
    turns: turnsOf(loaded),
    brackets: loaded.compaction.brackets.map(bracket => ({
      startSeq: bracket.startSeq,
      endSeq: bracket.endSeq,
      outcome: bracket.outcome,
      compactionId: typeof bracket.compactionId === 'string' ? bracket.compactionId : null,
      error: endError(bracket.endSeq === null ? undefined : events[bracket.endSeq]),
    })),
    endSeeds: events.filter(event => event.type === 'session/end-seed').map(event => event.seq),
    modelFailures: modelFailures(events),
  }
}
