// The operations of spec/00-processing.md, each mapped onto what one build of @deepseek-ai/dsh-session
// can do. The adapter passes inputs to upstream and reports what upstream answers; it adds no check of
// its own, so a rule the package does not enforce shows up as a failing vector. The exception is part
// of the persistence load (@deepseek-ai/dsh-session-persistence), which `load` reproduces from this
// package's own exports: the header's identity and version checks, then message adoption and the
// unknown-type refusal, in the coordinator's order. Its legacy rejections, upgrades and turn/end
// strictness are not in the package, so the adapter does not have them either, and leaves a log that
// the coordinator's legacy pass rejects or throws on to the package whole.
//
// Not provided, so their vectors are skipped:
// - compactionState, regionBalance (profile compaction): the lock scan and the region/pairing helpers
//   live in @deepseek-ai/dsh-compaction and dsh-compaction-basic, not in this package.
// - encodeJsonl, artifactPath: the header line, batch framing and artifact layout belong to the JSONL
//   backend (@deepseek-ai/dsh-session-persistence-jsonl); this package only packs chunk rows.
import { Context } from '@deepseek-ai/cordis'
import type { Adapter } from '../../adapter.ts'
import { showValue, type OperationResult } from '../../expectations.ts'
import { isRecord } from '../../../reference/lossless-json.ts'
import { inputSeq, upstreamRejection, type RejectionContext } from './error-codes.ts'
import { relations } from './relations.ts'
import type { SurfaceIntent, UpstreamBuild, UpstreamEvent, UpstreamSession, UpstreamStore } from './upstream.ts'

type Input = Record<string, unknown>

function accept(value: unknown): OperationResult {
  return { ok: true, value }
}

function reject(code: string, message: string, seq?: number): OperationResult {
  return { ok: false, error: { code, message, ...(seq === undefined ? {} : { seq }) } }
}

function recordsOf(input: Input): unknown[] {
  return Array.isArray(input['events']) ? input['events'] : []
}

/** The loaded log of a vector: its events are envelopes (spec/00-processing.md). */
function eventsOf(input: Input): UpstreamEvent[] {
  return recordsOf(input) as UpstreamEvent[]
}

/** `sessionId`, else the header's id, else the empty string (spec/00-processing.md, load). */
function sessionIdOf(input: Input): unknown {
  if (input['sessionId'] !== undefined) return input['sessionId']
  const header = input['header']
  try {
    return isRecord(header) && header['id'] !== undefined ? header['id'] : ''
  } catch {
    // A header that cannot be read (a revoked proxy) names no id: the package meets it, not the adapter.
    return ''
  }
}

function intentOf(event: { surfaceOp?: unknown; sourceEventSeqs?: unknown }): SurfaceIntent {
  return { surfaceOp: event.surfaceOp, sourceEventSeqs: event.sourceEventSeqs }
}

/** Runs `run` with `Date.now` reading `now`: upstream stamps appends, end-seed markers and headers with it. */
function atClock<T>(now: unknown, run: () => T): T {
  if (typeof now !== 'number') return run()
  const wallClock = Date.now
  Date.now = () => now
  try {
    return run()
  } finally {
    Date.now = wallClock
  }
}

/** The events whose seq is at most `atSeq`, or all of them. */
function prefixOf(events: UpstreamEvent[], atSeq: unknown): UpstreamEvent[] {
  return typeof atSeq === 'number' ? events.filter(event => event.seq <= atSeq) : events
}

/**
 * Appends a loaded log to `session` live, one event at a time at its own `time`. A session built
 * from a seed ends in an end-seed marker the log does not have, so append, and a fork source, are
 * rebuilt this way. Live appends cannot carry `ignorable`; no check of an appended candidate reads it.
 */
function appendAll(session: UpstreamSession, events: readonly UpstreamEvent[]): OperationResult | undefined {
  for (const [index, event] of events.entries()) {
    try {
      atClock(event.time, () => session.append(event.type, event.data, intentOf(event)))
    } catch (error) {
      return upstreamRejection(error, { seq: inputSeq(event, index) })
    }
  }
  return undefined
}

/**
 * Whether a log with this header reaches the coordinator's load at all: a header given that is no
 * object, whose version is no number, or that cannot be read never does (the JSONL backend rejects its
 * line first), so neither do the records, and the log is the package's.
 */
function reachesCoordinator(header: unknown): boolean {
  if (header === undefined) return true
  try {
    return isRecord(header) && typeof header['version'] === 'number'
  } catch {
    return false
  }
}

/** Handled by the persistence load before its unknown-type refusal (rejected, or upgraded). */
const RETIRED_TYPES: ReadonlySet<unknown> = new Set(['request/header-delta', 'mode/set', 'steering/message'])

/**
 * Whether the persistence load's legacy pass (`assertSupportedEvents`), which runs before its message
 * adoption and unknown-type refusal, stops the load: it rejects a log holding a `request/header-delta`,
 * a `mode/set`, or a `request/header` whose reason is "fallback", and it throws on a record whose `type`
 * cannot be read (null, undefined, a revoked proxy) and on a `request/header` whose `data.reason`
 * cannot be read (data null or absent). It reads them unguarded, and so does this test: a log that
 * stops the coordinator there never reaches its adoption or refusal, so it is left to the package.
 */
function holdsRejectedLegacyRecord(records: readonly unknown[]): boolean {
  try {
    const events = records as readonly { type?: unknown; data?: { reason?: unknown } }[]
    // find, as the coordinator does: unlike some, it visits the holes of a sparse array (as undefined)
    return events.find(event => event!.type === 'request/header-delta') !== undefined
      || events.find(event => event!.type === 'mode/set') !== undefined
      || events.find(event => event!.type === 'request/header' && event!.data!.reason === 'fallback') !== undefined
  } catch {
    return true
  }
}

function guarded(run: () => unknown, context: RejectionContext = {}): OperationResult {
  try {
    return accept(run())
  } catch (error) {
    return upstreamRejection(error, context)
  }
}

export function dshSessionOperations(build: UpstreamBuild): Adapter['operations'] {
  const { Session, SessionStore } = build.session

  /** Session.create over a seed, its rejections mapped with the seed as context. */
  function seeded(input: Input, events: readonly unknown[], run: (session: UpstreamSession) => unknown): OperationResult {
    const sessionId = sessionIdOf(input)
    return guarded(() => run(Session.create(sessionId, events)), { records: events, sessionId })
  }

  /**
   * The persistence load's identity and version checks: they run before any event is read, while the
   * session checks the identity only after replaying its seed and has no refusal. A header that is not
   * an object, and a version that is not a number, never reach them (the JSONL backend rejects such a
   * header line first), so those are left to the session.
   */
  function headerRefusal(input: Input): OperationResult | undefined {
    // A header these reads throw on (a revoked proxy) never reaches the coordinator (the JSONL backend
    // parses its header from text); it is left to the session, not let escape the operation.
    try {
      return headerChecks(input)
    } catch {
      return undefined
    }
  }

  function headerChecks(input: Input): OperationResult | undefined {
    const header = input['header']
    if (!isRecord(header)) return undefined
    if (input['sessionId'] !== undefined && header['id'] !== input['sessionId']) {
      return reject('HEADER_ID_MISMATCH', `header id ${showValue(header['id'])} is not the requested ${showValue(input['sessionId'])} (persistence load check, emulated)`)
    }
    const version = header['version']
    if (typeof version !== 'number' || version === 0) return undefined
    return reject(version > 0 ? 'FORMAT_VERSION_NEWER' : 'FORMAT_VERSION_OLDER', `format version ${version} is not 0 (persistence load refusal, emulated)`)
  }

  /**
   * The persistence load's per-event message adoption and unknown-type refusal, in its order: every
   * event's message shape first (`adoptSessionEvent`, the package's export for this), then the types
   * against this build's `KNOWN_SESSION_EVENT_TYPES`. The `vocabulary` input cannot select another
   * set: a build reads the vocabulary it ships (0.1.0-rc.8 and later know the four team/* types).
   * The retired names never reach upstream's refusal (the persistence load rejects or upgrades them
   * first), so they are left to the session here, which rejects only request/header-delta. A log its
   * legacy pass rejects reaches neither adoption nor refusal, and the adapter does not have that pass
   * (the package lacks it), so such a log is left to the session whole: refusing its unknown type here
   * would give an answer that no upstream path gives.
   */
  function shapeOrRefusal(records: readonly unknown[]): OperationResult | undefined {
    if (holdsRejectedLegacyRecord(records)) return undefined
    for (const [index, record] of records.entries()) {
      try {
        build.session.adoptSessionEvent(record)
      } catch (error) {
        return upstreamRejection(error, { seq: inputSeq(record, index), records })
      }
    }
    for (const [index, record] of records.entries()) {
      const { type, ignorable } = Object(record) as { type?: unknown; ignorable?: unknown }
      if (build.session.KNOWN_SESSION_EVENT_TYPES.has(type as string) || ignorable === true || RETIRED_TYPES.has(type)) continue
      return reject('FORMAT_UNKNOWN_EVENT_TYPE', `event type ${showValue(type)} is not known to this build and not marked ignorable (persistence load refusal, emulated)`, inputSeq(record, index))
    }
    return undefined
  }

  /** The seed path: the session validates every record and the header, then would add its end-seed. */
  function load(input: Input): OperationResult {
    const records = recordsOf(input)
    const refused = headerRefusal(input) ?? (reachesCoordinator(input['header']) ? shapeOrRefusal(records) : undefined)
    if (refused) return refused
    const sessionId = sessionIdOf(input)
    try {
      const session = Session.create(sessionId, records, input['header'])
      return accept(session.events.slice(0, records.length))
    } catch (error) {
      return upstreamRejection(error, { records, header: input['header'], sessionId })
    }
  }

  function append(input: Input): OperationResult {
    const events = eventsOf(input)
    const session = Session.create(sessionIdOf(input))
    const replayFailure = appendAll(session, events)
    if (replayFailure) return replayFailure
    const candidate = input['candidate']
    const fields = isRecord(candidate) ? candidate : {}
    try {
      return accept(atClock(input['time'], () => session.append(fields['type'], fields['data'], intentOf(fields))))
    } catch (error) {
      return upstreamRejection(error, { seq: events.length, candidate })
    }
  }

  /** A window (`baseSeq`) through the `./surface` fold, whose replacements are read off its node list. */
  function windowSurface(events: readonly UpstreamEvent[], baseSeq: unknown): OperationResult {
    const log: UpstreamEvent[] = []
    const manager = new build.surface.SurfaceManager(log, baseSeq as number)
    const replacements: unknown[] = []
    for (const [index, event] of events.entries()) {
      const before = [...manager.nodes]
      const generation = manager.replaceGeneration
      try {
        manager.validateNext(event)
      } catch (error) {
        return upstreamRejection(error, { seq: inputSeq(event, index) })
      }
      log.push(event)
      if (manager.replaceGeneration === generation) continue
      const after = manager.nodes
      const at = after.indexOf(event.seq)
      const op = event.surfaceOp as { start: number; end: number }
      replacements.push({ seq: event.seq, start: op.start, end: op.end, shadowedSeqs: before.slice(at, at + before.length - after.length + 1) })
    }
    return accept({ nodes: [...manager.nodes], replacements, generation: manager.replaceGeneration })
  }

  function surface(input: Input): OperationResult {
    const events = eventsOf(input)
    if (input['baseSeq'] !== undefined) return windowSurface(events, input['baseSeq'])
    try {
      const { nodes, replacements } = build.session.foldSurface(events)
      // foldSurface has no counter; the live surface's replaceGeneration is the spec's `generation`.
      const generation = new build.surface.SurfaceManager(events).replaceGeneration
      return accept({ nodes, replacements, generation })
    } catch (error) {
      // foldSurface does not say which event it judged; the same fold run event by event (a window
      // based at 0) does, so its rejection carries that event's seq (PROC-1).
      const judged = windowSurface(events, 0)
      return judged.ok ? upstreamRejection(error, {}) : judged
    }
  }

  function resume(input: Input): OperationResult {
    const events = eventsOf(input)
    const sessionId = sessionIdOf(input)
    try {
      const closers = build.session.interruptedTurnClosers(events)
      const session = atClock(input['now'], () => Session.create(sessionId, [...events, ...closers], input['header']))
      return accept(session.events)
    } catch (error) {
      return upstreamRejection(error, { records: events, header: input['header'], sessionId })
    }
  }

  /**
   * The source must be a live store session holding exactly the log. A seed that does not end in an
   * end-seed marker gets one, so such a log is appended live instead (losing only `ignorable`).
   */
  function sourceSession(store: UpstreamStore, input: Input, events: readonly UpstreamEvent[]): UpstreamSession | OperationResult {
    const meta = isRecord(input['header']) ? input['header'] : undefined
    try {
      if (events.at(-1)?.type === 'session/end-seed') return store.create(sessionIdOf(input), { seed: events, meta })
      const session = store.create(sessionIdOf(input), { meta })
      return appendAll(session, events) ?? session
    } catch (error) {
      return upstreamRejection(error, { records: events, header: meta, sessionId: sessionIdOf(input) })
    }
  }

  /** The seq of the turn/start an OPEN_TURN message names by its boundary and turn number. */
  function openTurnSeq(error: unknown, events: readonly UpstreamEvent[]): number | undefined {
    const named = /fork boundary (\d+) in session .* ends inside open turn (.*)$/.exec(error instanceof Error ? error.message : '')
    if (!named) return undefined
    const prefix = events.slice(0, Number(named[1]) + 1)
    return prefix.findLast(event => event.type === 'turn/start' && String((event.data as { turn?: unknown }).turn) === named[2])?.seq
  }

  async function fork(input: Input): Promise<OperationResult> {
    const events = eventsOf(input)
    // A bare cordis context with the store plugin, as the digest (section 24) runs it standalone.
    const ctx = new Context() as unknown as { plugin(plugin: unknown): Promise<unknown>; sessions: UpstreamStore }
    await ctx.plugin(SessionStore)
    const store = ctx.sessions
    const source = sourceSession(store, input, events)
    if ('ok' in source) return source
    const boundary = 'boundary' in input ? input['boundary'] : undefined
    try {
      const child = atClock(input['now'], () => store.fork(source.id, boundary, input['childId']))
      return accept({ header: child.header, events: child.events })
    } catch (error) {
      // The child's header is built from `childId`, when one is given.
      return upstreamRejection(error, { seq: openTurnSeq(error, events), ...('childId' in input ? { sessionId: input['childId'] } : {}) })
    }
  }

  /**
   * The package decodes one stored line (`decodeStorageRecord`); the header line rules, seq checks and
   * torn-tail policy belong to the JSONL backend. So the first line is parsed and returned as it is,
   * every later complete line is decoded, bytes after the last line feed are not read, and `tornTail`
   * is always null. There is no zstd decoder in this package. The framing (a rejection at the first bad
   * row, with the artifact's line) is this adapter's, so what it credits the package with is the row
   * decoder's verdict alone (docs/findings.md, scope-jsonl). A zstd artifact, and a line that is not
   * JSON, are inputs the package cannot handle: answered as unsupported (spec/adapter-protocol.md).
   */
  function decodeJsonl(input: Input): OperationResult | { ok: false; unsupported: string } {
    if (input['encoding'] === 'zstd') return { ok: false, unsupported: 'dsh-session has no zstd decoder (that is the JSONL backend, on Node 22+)' }
    const text = typeof input['text'] === 'string' ? input['text'] : Buffer.from(String(input['base64'] ?? ''), 'base64').toString('utf8')
    const lines = text.split('\n').slice(0, -1)
    let header: unknown
    const events: unknown[] = []
    for (const [index, line] of (lines.length > 0 ? lines : ['']).entries()) {
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch (error) {
        return { ok: false, unsupported: `line ${index + 1} is not JSON (${String(error)}); what a reader does then is the JSONL backend's rule, not this package's` }
      }
      if (index === 0) {
        header = value
        continue
      }
      try {
        events.push(...build.session.decodeStorageRecord(value))
      } catch (error) {
        return upstreamRejection(error, { line: index + 1 })
      }
    }
    return accept({ header, events, tornTail: null })
  }

  return {
    load,
    append,
    surface,
    messages: input => seeded(input, eventsOf(input), session => session.deriveMessages()),
    requestHeader: input => guarded(() => build.session.foldRequestHeader(prefixOf(eventsOf(input), input['atSeq'])) ?? null),
    requestContext: input => seeded(input, prefixOf(eventsOf(input), input['atSeq']), session => session.requestContext() ?? null),
    relations: input => relations(build, eventsOf(input)),
    repair: input => guarded(() => ({ closers: build.session.interruptedTurnClosers(eventsOf(input)) })),
    resume,
    fork,
    decodeJsonl,
    headerEquals: input => guarded(() => build.session.headerEquals(build.session.canonicalHeader(input['left']), build.session.canonicalHeader(input['right']))),
  }
}
