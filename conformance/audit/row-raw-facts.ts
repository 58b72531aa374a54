// Row 1, raw-fact integrity: every raw event is still there, in order, with valid provenance, and no
// unknown required event was skipped. Decoding and load make these checks; the row reports what they
// found and the relation faults that point at lost or misplaced boundary events.
import { vocabularyNamed } from '../../reference/unknown-types.ts'
import type { AuditEvidence, AuditRow, AuditVerdict } from '../../generated/types/index.ts'
import { citedSeqs, seqList, type AuditedLog, type LoadedLog } from './log.ts'
import { plural } from '../wording.ts'
import { capped, evidence, row, violationsOfRow } from './verdicts.ts'
import { isSurfaceRuleCode } from './row-surface.ts'

const REPLACEMENTS_LISTED = 10

/** What a load or decode rejection means for this row, by the family of its code. */
function rejectionMeaning(code: string): string {
  if (code === 'ENV_SEQ_NOT_CONTIGUOUS') return 'a seq gap or repeat: an event is missing or doubled'
  if (code === 'JSONL_SEQ_GAP') return 'a line breaks the seq count: an event is missing, doubled or out of place, or the line holds no event'
  if (isSurfaceRuleCode(code)) return 'an event breaks a surface rule (see Surface legality)'
  if (code === 'REQUEST_HEADER_INVALID') return 'a request header lacks what a request is rebuilt from (see Request rebuild)'
  if (code.startsWith('PROVENANCE_')) return 'provenance is broken'
  if (code === 'FORMAT_UNKNOWN_EVENT_TYPE') return 'an unknown event type that is not marked ignorable'
  if (code.startsWith('FORMAT_VERSION')) return 'the log is of another format version'
  if (code.startsWith('JSONL_HEADER_')) return 'without a valid session header line, no event of the log is read'
  if (code === 'JSONL_FRAME_INVALID') return 'a zstd frame is damaged or not laid out as JSONL-14 says'
  if (code === 'JSONL_ROW_INVALID') return 'a packed chunk row is malformed'
  if (code.startsWith('JSONL_')) return 'a record does not decode'
  return 'an event breaks an acceptance rule'
}

function rejectedRow(log: AuditedLog): AuditRow {
  const rejection = log.info.rejection
  if (rejection === null) throw new Error('rejectedRow needs a rejection')
  const where = rejection.line !== undefined ? ` at line ${rejection.line}` : rejection.seq !== undefined ? ` at seq ${rejection.seq}` : ''
  const refused = rejection.class === 'refusal'
  const text = `${rejection.operation} ${refused ? 'refuses' : 'rejects'} the log with ${rejection.code}${where}: ${rejection.message}`
  const requirements = log.rejectionRule === undefined ? undefined : [log.rejectionRule]
  // The notices about the bytes (a byte order mark, CR line ends) often say why the log was rejected.
  // The meaning after a semicolon: the message may end in a parenthesis of its own, the rule follows.
  const items = [...fileChangeEvidence(log), evidence('fail', `${text}; ${rejectionMeaning(rejection.code)}`, { seq: rejection.seq, requirements }), ...byteNoticeEvidence(log)]
  // FMT-5: a refusal is never reported as damage.
  return row('raw-facts', items, () => (refused
    ? `This reader cannot read the log: ${rejectionMeaning(rejection.code)}. That is no sign of damage (FMT-5): the log may be intact.`
    : `The raw events cannot be established: ${rejectionMeaning(rejection.code)}.`))
}

/**
 * JSONL-8: writers write UTF-8 with LF line ends and no byte order mark; a reader copes, but what it
 * decoded is then not byte for byte what was stored.
 */
function byteNoticeEvidence(log: AuditedLog): AuditEvidence[] {
  return log.byteNotices.map(notice => evidence('warn', `${notice}: the stored bytes are not as a writer writes them`, { requirements: ['JSONL-8', 'JSONL-9'] }))
}

/** A file a writer changed while audit read it: first, since it qualifies every other item of every row. */
function fileChangeEvidence(log: AuditedLog): AuditEvidence[] {
  return log.fileChange === undefined ? [] : [evidence('warn', log.fileChange)]
}

function decodingEvidence(log: AuditedLog, loaded: LoadedLog): AuditEvidence {
  const kept = `${plural(loaded.events.length, 'event')} decoded from ${log.info.bytes} bytes of ${log.info.encoding} JSONL`
  const kind = log.info.encoding === 'zstd' ? 'final frame, read as far as its lines are complete' : 'tail, dropped as uncommitted'
  const torn = loaded.tornTail === null ? '' : `; a torn ${kind}, from line ${loaded.tornTail.line} (see Persistence)`
  return evidence('info', `${kept}, session "${log.info.sessionId ?? ''}"${torn}`, { requirements: ['JSONL-9', 'JSONL-11', 'ROW-2'] })
}

function contiguityEvidence(loaded: LoadedLog): AuditEvidence {
  const count = loaded.events.length
  if (count === 0) return evidence('info', 'the log holds no event: no seq to check', { requirements: ['ENV-9'] })
  return evidence('pass', `seqs 0…${count - 1} are contiguous: each event sits at its own position, none is missing or repeated`, { requirements: ['ENV-9'] })
}

function provenanceEvidence(loaded: LoadedLog): AuditEvidence[] {
  const citing = loaded.events.filter(event => citedSeqs(event).length > 0)
  const citations = citing.reduce((total, event) => total + citedSeqs(event).length, 0)
  // Two events may cite one: the events cited are counted once each, the citations beside them.
  const cited = new Set(citing.flatMap(event => citedSeqs(event))).size
  const citationCount = citations === cited ? '' : ` (${plural(citations, 'citation')})`
  const items = [citing.length === 0
    ? evidence('info', 'no event cites an earlier one in sourceEventSeqs: no citation to check', { requirements: ['PROV-1', 'PROV-5'] })
    : evidence('pass', `${plural(citing.length, 'event')} ${citing.length === 1 ? 'cites' : 'cite'} ${plural(cited, 'earlier event')}${citationCount} in sourceEventSeqs; every citation names an event before the citing one`, { requirements: ['PROV-1', 'PROV-5'] })]
  for (const replacement of loaded.surface.replacements.slice(0, REPLACEMENTS_LISTED)) {
    const event = loaded.events[replacement.seq]
    const cited = event === undefined ? [] : citedSeqs(event)
    items.push(evidence('pass', `replace at seq ${replacement.seq} cites ${seqList(cited)}; the events it shadowed (${seqList(replacement.shadowedSeqs)}) are still in the log, unchanged`, { seq: replacement.seq, requirements: ['PROV-7', 'ENV-11'] }))
  }
  const unlisted = loaded.surface.replacements.length - REPLACEMENTS_LISTED
  if (unlisted > 0) items.push(evidence('info', `${plural(unlisted, 'more replace')} cite their shadowed events the same way (load checks every one)`))
  return items
}

function vocabularyEvidence(log: AuditedLog, loaded: LoadedLog): AuditEvidence {
  const known = vocabularyNamed(log.info.vocabulary) ?? new Set<string>()
  const unknown = loaded.events.filter(event => !known.has(event.type))
  if (unknown.length === 0) return evidence('pass', `every event type is in the vocabulary ${log.info.vocabulary}: no unknown event was skipped`, { requirements: ['UNK-3'] })
  const types = [...new Set(unknown.map(event => event.type))]
  const what = unknown.length === 1 ? `1 event of a type unknown to ${log.info.vocabulary} (${types[0]}) is` : `${unknown.length} events of ${plural(types.length, 'type')} unknown to ${log.info.vocabulary} (${types.join(', ')}) are`
  return evidence('pass', `${what} marked ignorable and kept, not skipped`, { requirements: ['UNK-4'] })
}

function relationEvidence(loaded: LoadedLog): AuditEvidence[] {
  const faults = violationsOfRow(loaded, 'raw-facts')
  if (faults.length === 0) return [evidence('pass', 'turn and step boundaries keep their relations: no boundary event is missing or out of place', { requirements: ['TURN-4', 'TURN-6', 'TURN-7', 'TURN-8'] })]
  return capped(faults.map(({ code, seq, type, requirements, message }) => evidence('fail', `${code} at seq ${seq} (${type}): ${message}, so a turn or step boundary is missing or out of place`, { seq, requirements })))
}

/** JSONL-8, JSONL-12: an artifact that holds only its header line loads as an empty log, but no writer writes one. */
function headerOnlyEvidence(): AuditEvidence {
  return evidence('warn', 'the artifact holds only its header line: it loads as an empty log, but no writer writes one, since the first write holds the header and the first batch together', { requirements: ['JSONL-8', 'JSONL-12'] })
}

export function rawFactsRow(log: AuditedLog): AuditRow {
  const loaded = log.loaded
  if (loaded === undefined) return rejectedRow(log)
  const items = [
    ...fileChangeEvidence(log),
    decodingEvidence(log, loaded),
    contiguityEvidence(loaded),
    ...provenanceEvidence(loaded),
    vocabularyEvidence(log, loaded),
    ...relationEvidence(loaded),
    ...byteNoticeEvidence(log),
    ...(loaded.events.length === 0 && log.tornTail === null ? [headerOnlyEvidence()] : []),
  ]
  return row('raw-facts', items, verdict => rawFactsSummary(verdict, log))
}

function rawFactsSummary(verdict: AuditVerdict, log: AuditedLog): string {
  if (verdict === 'pass') {
    // A torn tail is not part of the log (JSONL-11): the row speaks of the committed events.
    const committed = log.tornTail === null ? '' : ' of the committed log (a torn tail is dropped: see Persistence)'
    return `Every raw event${committed} is present, in order, with valid provenance; no unknown required event was skipped.`
  }
  // A warning is of a file that changed while read, of the bytes (check's notices), or else of an
  // artifact of its header line alone.
  if (verdict === 'warn' && log.fileChange !== undefined) return 'The file changed while audit read it: what was read may be no state it was ever in (see the warnings).'
  if (verdict === 'warn' && log.byteNotices.length > 0) return 'Every event is present, but the stored bytes are not as a writer writes them, and what was read from them may differ (see the warnings).'
  if (verdict === 'warn') return 'The artifact holds only its header line, which no writer writes; it loads as an empty log (see the warnings).'
  return 'Turn or step boundary events are missing or out of place.'
}
