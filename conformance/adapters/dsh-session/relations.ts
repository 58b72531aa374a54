// The `relations` operation over upstream's optional invariant companions, run standalone: each
// companion registers an installer with an invariant registry; given a context whose store lists one
// session, the installer replays that session's log from its first event and calls the failure
// callback at the first broken relation. Upstream stops there (on a live session the failing append
// is vetoed), so at most one violation is reported, where the spec (PROC-7) asks for all of them.
import type { OperationResult } from '../../expectations.ts'
import { inputSeq, ruleFor, upstreamRejection } from './error-codes.ts'
import type { CompanionModule, UpstreamBuild } from './upstream.ts'

type Installer = (ctx: unknown, fail: (message: string) => never) => void

class RelationBroken extends Error {}

async function installerOf(companion: CompanionModule): Promise<Installer> {
  const registry = { invariants: { register: (_owner: string, install: Installer) => install } }
  return await companion.apply(registry) as Installer
}

interface Failure {
  text: string
  seq: number
  index: number
  /** What a companion threw at this event, not through its failure callback. */
  crash?: unknown
}

/** Replays `events` through one installer; the failure names the event the replay stood at. */
function firstFailure(install: Installer, events: readonly unknown[]): Failure | undefined {
  let index = -1
  // A fresh iterable per read: the compaction companion reads the log twice (a stale-start scan, then
  // the replay), and only the read that is under way when the callback fires tells the event at fault.
  const session = {
    get events(): Iterable<unknown> {
      return {
        *[Symbol.iterator]() {
          for (const [position, event] of events.entries()) {
            index = position
            yield event
          }
        },
      }
    },
  }
  const ctx = { sessions: { list: () => [session] }, on: () => () => false }
  try {
    install(ctx, (message: string) => { throw new RelationBroken(message) })
    return undefined
  } catch (error) {
    if (!(error instanceof RelationBroken)) return { text: String(error), seq: inputSeq(events[index], index), index, crash: error }
    return { text: error.message, seq: inputSeq(events[index], index), index }
  }
}

/** The first violation over both companions; on the same event the core companion's comes first. */
export async function relations(build: UpstreamBuild, events: readonly unknown[]): Promise<OperationResult> {
  try {
    const installers = [await installerOf(build.companions.session), await installerOf(build.companions.compaction)]
    const failures = installers.map(install => firstFailure(install, events)).filter(failure => failure !== undefined)
    const first = failures.reduce<Failure | undefined>((best, failure) => (best === undefined || failure.index < best.index ? failure : best), undefined)
    if (first === undefined) return { ok: true, value: { violations: [] } }
    // A crash at a later event than the first violation is never reached: upstream vetoes that one first.
    if (first.crash !== undefined) return upstreamRejection(first.crash, { records: events })
    const code = ruleFor(first.text)?.code
    if (code === undefined) return upstreamRejection(new Error(first.text), { seq: first.seq })
    return { ok: true, value: { violations: [{ code, seq: first.seq }] } }
  } catch (error) {
    // Not a relation failure, nor a crash while replaying (firstFailure keeps those): loading a companion failed.
    return upstreamRejection(error, { records: events })
  }
}
