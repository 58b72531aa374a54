// The published builds of @deepseek-ai/dsh-session this adapter runs, and the small part of their API
// it uses. Each version is installed under an npm alias (package.json); the peers they import by real
// name (@deepseek-ai/cordis, dsh-llm, dsh-scope) resolve to one shared set at 0.1.0-rc.8 in the
// top-level node_modules, the only version at which every peer exists. That is sound because the
// functions the session builds take from those peers are byte-identical in every dsh-llm version from
// 0.1.0-rc.6 to 0.1.1-rc.2, and dsh-scope 0.1.0-rc.6 equals 0.1.0-rc.8 (tests/adapters/dsh-session.test.ts
// loads all four builds side by side).

import type { SessionEvent } from '../../../reference/envelope.ts'

export const DSH_SESSION_VERSIONS = ['0.1.0-rc.6', '0.1.0-rc.7', '0.1.0-rc.8', '0.1.1-rc.2'] as const
export type DshSessionVersion = (typeof DSH_SESSION_VERSIONS)[number]

/** Upstream events have the envelope of the spec (chapter 01), which the reference already types. */
export type UpstreamEvent = SessionEvent

export interface SurfaceIntent {
  surfaceOp?: unknown
  sourceEventSeqs?: unknown
}

export interface UpstreamSession {
  readonly id: string
  readonly header: Record<string, unknown>
  readonly events: readonly UpstreamEvent[]
  append(type: unknown, data: unknown, intent: SurfaceIntent): UpstreamEvent
  deriveMessages(): unknown[]
  requestContext(): unknown
}

export interface UpstreamStore {
  create(id: unknown, options: { seed?: readonly unknown[]; meta?: unknown }): UpstreamSession
  fork(source: unknown, boundary: unknown, childId: unknown): UpstreamSession
}

export interface SurfaceFold {
  nodes: number[]
  replacements: { seq: number; start: number; end: number; shadowedSeqs: number[] }[]
}

/** The main entry of one build. */
export interface SessionModule {
  Session: { create(id: unknown, seed?: readonly unknown[], header?: unknown): UpstreamSession }
  SessionStore: unknown
  foldSurface(events: readonly unknown[]): SurfaceFold
  foldRequestHeader(events: readonly unknown[]): unknown
  canonicalHeader(header: unknown): unknown
  headerEquals(left: unknown, right: unknown): boolean
  interruptedTurnClosers(events: readonly unknown[]): UpstreamEvent[]
  decodeStorageRecord(value: unknown): unknown[]
  adoptSessionEvent(event: unknown): unknown
  KNOWN_SESSION_EVENT_TYPES: ReadonlySet<string>
}

/** The `./surface` subpath: the only public home of the incremental fold with a window base. */
export interface SurfaceModule {
  SurfaceManager: new (log: readonly unknown[], baseSeq?: number) => {
    validateNext(event: unknown): void
    readonly nodes: readonly number[]
    readonly replaceGeneration: number
  }
}

/** An invariant companion (`./invariant` of dsh-session and of dsh-compaction). */
export interface CompanionModule {
  apply(ctx: unknown): Promise<unknown>
}

export interface UpstreamBuild {
  version: DshSessionVersion
  session: SessionModule
  surface: SurfaceModule
  companions: { session: CompanionModule; compaction: CompanionModule }
}

type Import = () => Promise<unknown>

// dsh-compaction was published at 0.1.0-rc.6 and 0.1.0-rc.8 only: rc.7 takes rc.6 (its peer range
// starts there) and 0.1.1-rc.2 takes rc.8. Its invariant imports `@deepseek-ai/dsh-session` by real
// name, which is installed at 0.1.0-rc.8 for that purpose; it uses only `isReplacementSurfaceEvent`,
// which is the same in all four builds.
const IMPORTS: Record<DshSessionVersion, { session: Import; surface: Import; sessionInvariant: Import; compactionInvariant: Import }> = {
  '0.1.0-rc.6': {
    session: () => import('dsh-session-0.1.0-rc.6'),
    surface: () => import('dsh-session-0.1.0-rc.6/surface'),
    sessionInvariant: () => import('dsh-session-0.1.0-rc.6/invariant'),
    compactionInvariant: () => import('dsh-compaction-0.1.0-rc.6/invariant'),
  },
  '0.1.0-rc.7': {
    session: () => import('dsh-session-0.1.0-rc.7'),
    surface: () => import('dsh-session-0.1.0-rc.7/surface'),
    sessionInvariant: () => import('dsh-session-0.1.0-rc.7/invariant'),
    compactionInvariant: () => import('dsh-compaction-0.1.0-rc.6/invariant'),
  },
  '0.1.0-rc.8': {
    session: () => import('dsh-session-0.1.0-rc.8'),
    surface: () => import('dsh-session-0.1.0-rc.8/surface'),
    sessionInvariant: () => import('dsh-session-0.1.0-rc.8/invariant'),
    compactionInvariant: () => import('dsh-compaction-0.1.0-rc.8/invariant'),
  },
  '0.1.1-rc.2': {
    session: () => import('dsh-session-0.1.1-rc.2'),
    surface: () => import('dsh-session-0.1.1-rc.2/surface'),
    sessionInvariant: () => import('dsh-session-0.1.1-rc.2/invariant'),
    compactionInvariant: () => import('dsh-compaction-0.1.0-rc.8/invariant'),
  },
}

export async function loadBuild(version: DshSessionVersion): Promise<UpstreamBuild> {
  const imports = IMPORTS[version]
  const [session, surface, sessionInvariant, compactionInvariant] = await Promise.all([
    imports.session(), imports.surface(), imports.sessionInvariant(), imports.compactionInvariant(),
  ])
  return {
    version,
    session: session as SessionModule,
    surface: surface as SurfaceModule,
    companions: { session: sessionInvariant as CompanionModule, compaction: compactionInvariant as CompanionModule },
  }
}
