// Row 2, surface legality: every replace named a real range of the surface it changed, cited what it
// shadowed and kept calls with their results; and on the current surface every tool call still has its
// result and every result its call.
import { counterStep, type RegionValue } from '../../reference/region-balance.ts'
import { jsonEqual } from '../../reference/lossless-json.ts'
import type { Result } from '../../reference/result.ts'
import { applySurfacePlan, emptySurface, planSurfaceEvent, type Replacement } from '../../reference/surface.ts'
import type { AuditEvidence, AuditRejection, AuditRow } from '../../generated/types/index.ts'
import { answeredCallId, dataOf, messageOfEvent, seqList, toolCallIds, type LoadedLog } from './log.ts'
import { plural } from '../wording.ts'
import { claimFor } from './replacements.ts'
import { applyToTree, counterTree, regionBefore } from './surface-balance.ts'
import { capped, evidence, rejectionRow, row, violationsOfRow } from './verdicts.ts'
import { jsonText } from './json-text.ts'

const REPLACEMENTS_LISTED = 10

/**
 * Whether a code is of a rule of this row: a surface op or replace range (chapter 05), an uncited
 * shadowed node (PROV-7) or a tool-result rewrite (chapter 07).
 */
export function isSurfaceRuleCode(code: string): boolean {
  return code.startsWith('SURFACE_') || code.startsWith('REWRITE_') || code === 'PROVENANCE_INCOMPLETE'
}

/** Whether load rejected the log for a rule of this row. */
export function isSurfaceRejection(rejection: AuditRejection): boolean {
  return rejection.operation === 'load' && isSurfaceRuleCode(rejection.code)
}

/**
 * The row of a log that load rejected for one of this row's rules: that rejection is its evidence,
 * citing `rule`, the rule `check` cites for it (when one does).
 */
export function surfaceRejectedRow(rejection: AuditRejection, rule: string | undefined): AuditRow {
  return rejectionRow('surface-legality', rejection, 'An event breaks a surface rule, so the log does not load.', rule === undefined ? undefined : [rule])
}

function surfaceEvidence(loaded: LoadedLog): AuditEvidence {
  const { nodes, generation } = loaded.surface
  const listed = nodes.length === 0 ? '' : `: ${seqList(nodes)}`
  return evidence('info', `the current surface holds ${plural(nodes.length, 'node')} after ${plural(generation, 'replace')}${listed}`, { requirements: ['SURF-10'] })
}

/**
 * REGION-5 for each replace but a tool-result rewrite (which needs no balance, REGION-7), on the
 * surface just before it, by seq of the replace. The log is folded once, with the pairing counter kept
 * beside the fold (surface-balance.ts), so the audit grows with events × log(nodes).
 */
function regionsBeforeReplaces(loaded: LoadedLog): Map<number, Result<RegionValue>> {
  const regions = new Map<number, Result<RegionValue>>()
  const state = emptySurface()
  const counter = counterTree(loaded.events.length)
  const eventAt = (seq: number) => loaded.events[seq]
  for (const event of loaded.events) {
    const planned = planSurfaceEvent(state, event, eventAt)
    // Every event of a loaded log plans, as in the reference's own fold.
    if (!planned.ok) continue
    const { plan } = planned
    if (plan.kind === 'replace' && event.type !== 'tool/result') regions.set(plan.seq, regionBefore(counter, state, plan))
    applyToTree(counter, state, plan, eventAt)
    applySurfacePlan(state, plan)
  }
  return regions
}

/** REGION-5 on the surface just before the replace (a tool-result rewrite needs no balance, REGION-7). */
function regionEvidence(loaded: LoadedLog, replacement: Replacement, regions: Map<number, Result<RegionValue>>): AuditEvidence {
  const event = loaded.events[replacement.seq]
  const range = `${replacement.start}…${replacement.end}`
  const shadowed = `shadowed ${seqList(replacement.shadowedSeqs)} and cites each of them`
  if (event?.type === 'tool/result') {
    return evidence('pass', `seq ${replacement.seq} rewrote tool result ${range} in place: ${shadowed}`, { seq: replacement.seq, requirements: ['REWR-1', 'PROV-7'] })
  }
  const region = regions.get(replacement.seq)!
  if (!region.ok) {
    return evidence('fail', `seq ${replacement.seq} replaced ${range}, a region that was not legal on the surface it changed (${region.error.code}: ${region.error.message})`, { seq: replacement.seq, requirements: ['REGION-5', 'REGION-7'] })
  }
  return evidence('pass', `seq ${replacement.seq} replaced ${range}, a legal region (both cuts balanced): ${shadowed}`, { seq: replacement.seq, requirements: ['SURF-4', 'SURF-5', 'PROV-7', 'REGION-5'] })
}

/** COMP-12, COMP-13: the summary or prune lists exactly the nodes its replace shadowed. */
function claimEvidence(loaded: LoadedLog, replacement: Replacement): AuditEvidence | undefined {
  const claim = claimFor(loaded, replacement.seq)
  if (claim === undefined) return undefined
  const claimed = dataOf(claim)['shadowedSeqs']
  if (jsonEqual(claimed, replacement.shadowedSeqs)) return undefined
  return evidence('fail', `${claim.type} at seq ${claim.seq} claims shadowedSeqs ${jsonText(claimed)}, but the replace at seq ${replacement.seq} shadowed ${seqList(replacement.shadowedSeqs)}`, { seq: replacement.seq, requirements: ['COMP-12', 'COMP-13'] })
}

function replacementEvidence(loaded: LoadedLog): AuditEvidence[] {
  const replacements = loaded.surface.replacements
  const regions = regionsBeforeReplaces(loaded)
  const items: AuditEvidence[] = []
  replacements.forEach((replacement, index) => {
    const region = regionEvidence(loaded, replacement, regions)
    if (index < REPLACEMENTS_LISTED || region.mark !== 'pass') items.push(region)
    const claim = claimEvidence(loaded, replacement)
    if (claim !== undefined) items.push(claim)
  })
  if (replacements.length > REPLACEMENTS_LISTED) items.push(evidence('info', `${plural(replacements.length - REPLACEMENTS_LISTED, 'more replace')} checked the same way; only faults are listed`))
  return items
}

/** REGION-1, REGION-2: the pairing counter over the current surface; the first node where it goes negative. */
function counterOrphan(loaded: LoadedLog): number | undefined {
  let pending = 0
  for (const seq of loaded.surface.nodes) {
    pending += counterStep(loaded.events[seq])
    if (pending < 0) return seq
  }
  return undefined
}

function pairingEvidence(loaded: LoadedLog): AuditEvidence[] {
  const calls = new Map<string, number>()
  const results = new Map<string, number>()
  for (const seq of loaded.surface.nodes) {
    const event = loaded.events[seq]
    if (event?.type === 'assistant/message') for (const id of toolCallIds(messageOfEvent(event))) calls.set(id, seq)
    if (event?.type === 'tool/result') results.set(answeredCallId(event), seq)
  }
  const repaired = new Set(loaded.closers.filter(closer => closer.type === 'tool/result').map(answeredCallId))
  const items: AuditEvidence[] = []
  const orphanAt = counterOrphan(loaded)
  if (orphanAt !== undefined) items.push(evidence('fail', `the pairing counter of the current surface falls below zero at seq ${orphanAt}: a result stands with no call before it`, { seq: orphanAt, requirements: ['REGION-2'] }))
  for (const [id, seq] of results) {
    if (!calls.has(id)) items.push(evidence('fail', `tool result seq ${seq} answers call ${id}, which is not on the current surface (an orphan result)`, { seq, requirements: ['PAIR-8', 'REGION-2'] }))
  }
  for (const [id, seq] of calls) {
    if (results.has(id)) continue
    const why = !repaired.has(id) ? 'the step ended without it (PAIR-6 tolerates this, but the next request shows a call without its result)'
      : loaded.repairRejection === undefined ? 'it is pending in the open tail turn; crash repair would answer it'
        : 'it is pending in the open tail turn, which crash repair cannot close (see failure recovery)'
    items.push(evidence('warn', `tool call ${id} of assistant message seq ${seq} has no result on the current surface: ${why}`, { seq, requirements: ['PAIR-6', 'REPAIR-8'] }))
  }
  const paired = [...calls.keys()].filter(id => results.has(id)).length
  if (items.length === 0) items.push(evidence('pass', `pairing holds on the current surface: ${plural(paired, 'tool call')} each with its result, and no result without its call`, { requirements: ['PAIR-2', 'REGION-1'] }))
  return items
}

function relationEvidence(loaded: LoadedLog): AuditEvidence[] {
  return capped(violationsOfRow(loaded, 'surface-legality')
    .map(({ code, seq, requirements, message }) => evidence('fail', `${code} at seq ${seq}: ${message}`, { seq, requirements })))
}

export function surfaceLegalityRow(loaded: LoadedLog): AuditRow {
  const items = [surfaceEvidence(loaded), ...replacementEvidence(loaded), ...relationEvidence(loaded), ...pairingEvidence(loaded)]
  return row('surface-legality', items, verdict => {
    if (verdict === 'pass') return 'Every replace named a legal range and cited what it shadowed; calls and results pair up on the current surface.'
    if (verdict === 'warn') return 'The surface is legal, but a tool call on it has no result.'
    return 'A replace or the current surface breaks the surface rules (see the failing evidence).'
  })
}
