// Which requirement a reported code breaks, for people reading a check report. The rule is kept
// simple on purpose: each stage of the pipeline names the chapters whose rules it applies (in the
// order PROC-2 lists them), and a code maps to the first requirement, in that chapter order and then
// in spec order, whose **Errors:** line names the code; a code no such chapter names falls back to
// the first requirement anywhere that names it. A rule that sets the order of a chapter's checks (its
// title speaks of checks and their order: "Check order", "Envelope checks run in a fixed order")
// names every code of its chapter, so it comes after the rule that states the check:
// MESSAGE_ROLE_INVALID is VOC-10, not VOC-8, and a new rule numbered after the order rule is still the
// one cited. So a TURN_NOT_OPEN from relations is a turn rule, not REWR-5, and a negative zero in the
// header is META-5, not JSON-2. The three codes that several turn rules share are told apart by the
// event that broke them (TURN-6 to TURN-9).
import { fileURLToPath } from 'node:url'
import { readSpecCatalog, type Requirement } from '../spec-catalog.ts'
import type { LoadStage } from './streaming-load.ts'

export type Stage = 'decode' | LoadStage | 'relations'

const CHAPTERS_OF_STAGE: Record<Stage, readonly string[]> = {
  decode: ['19-jsonl.md', '18-format-version.md'],
  header: ['03-storage-header.md', '18-format-version.md'],
  legacy: ['18-format-version.md'],
  shape: ['18-format-version.md', '04-vocabulary.md', '09-turns-and-steps.md', '16-request-header.md'],
  vocabulary: ['17-unknown-types.md'],
  'header-fields': ['03-storage-header.md', '02-lossless-json.md'],
  replay: ['02-lossless-json.md', '01-envelope.md', '05-surface.md', '06-provenance.md', '07-tool-result-rewrites.md'],
  relations: ['09-turns-and-steps.md', '10-tool-pairing.md', '13-compaction.md'],
}

const SPEC_DIR = fileURLToPath(new URL('../../spec', import.meta.url))

/** Codes several rules of chapter 09 give; which rule an event broke depends on its kind. */
const SHARED_TURN_CODES = new Set(['TURN_NOT_OPEN', 'STEP_NOT_OPEN', 'STEP_MISMATCH'])

/** The turn rule of each event kind that is not step-scoped (TURN-8 covers the step-scoped ones). */
const TURN_RULE_OF_TYPE: Readonly<Record<string, string>> = {
  'turn/end': 'TURN-6',
  'step/start': 'TURN-7',
  'request/header': 'TURN-9',
  'request/context': 'TURN-9',
  'todo/write': 'TURN-9',
}

/**
 * Chapter 03 gives each header member its own rule, while HEADER_FIELD_INVALID names them all; the
 * reference's message says which member it is about ("header cwd must be a string").
 */
const META_RULE_OF_MEMBER: Readonly<Record<string, string>> = {
  id: 'META-2', version: 'META-3', createdAt: 'META-6', cwd: 'META-7',
  parentSession: 'META-8', seedLength: 'META-8', origin: 'META-8', delegationDepth: 'META-8', agentPreset: 'META-8',
}

/** A rule that sets the order of checks: its title speaks of checks and their order ("Check order", "Envelope checks run in a fixed order"). */
const isOrderRule = (requirement: Requirement): boolean => /\bcheck(s|ed)?\b/i.test(requirement.title) && /\border\b/i.test(requirement.title)

/** The first of `requirements` whose Errors: line names `code`, a rule that states a check before one that orders checks. */
function namingRule(requirements: readonly Requirement[], code: string): Requirement | undefined {
  const naming = requirements.filter(requirement => requirement.errors.includes(code))
  return naming.find(requirement => !isOrderRule(requirement)) ?? naming[0]
}

export class RequirementIndex {
  private readonly requirements: readonly Requirement[]
  private readonly classes: ReadonlyMap<string, string>
  private readonly cited = new Map<string, string | undefined>()

  constructor(specDir = SPEC_DIR) {
    const catalog = readSpecCatalog(specDir)
    this.requirements = catalog.requirements
    this.classes = new Map(catalog.codes.filter(code => code.table === 'rejection').map(code => [code.code, code.kind]))
  }

  /** The class errors.md gives a rejection code (refusal, malformed, invalid, relation, operation). */
  classOf(code: string): string | undefined {
    return this.classes.get(code)
  }

  /** Whether errors.md gives `code` the class refusal: the log may be intact, but unreadable here (FMT-5). */
  isRefusal(code: string): boolean {
    return this.classOf(code) === 'refusal'
  }

  /** The requirement ID for `code` raised at `stage`, or undefined for a code no requirement names. */
  of(stage: Stage, code: string): string | undefined {
    // A log may break one rule hundreds of thousands of times: each stage and code is looked up once.
    const key = `${stage} ${code}`
    if (!this.cited.has(key)) this.cited.set(key, this.lookUp(stage, code))
    return this.cited.get(key)
  }

  private lookUp(stage: Stage, code: string): string | undefined {
    for (const chapter of CHAPTERS_OF_STAGE[stage]) {
      const found = namingRule(this.requirements.filter(requirement => requirement.chapter === chapter), code)
      if (found !== undefined) return found.id
    }
    return namingRule(this.requirements, code)?.id
  }

  /** The requirement a load fault breaks: for a header member's fault, that member's rule (chapter 03). */
  ofLoadFault(fault: { stage: Stage; code: string; message: string }): string | undefined {
    const member = fault.code === 'HEADER_FIELD_INVALID' ? /^header (\w+) /.exec(fault.message)?.[1] : undefined
    const rule = member === undefined || !Object.hasOwn(META_RULE_OF_MEMBER, member) ? undefined : META_RULE_OF_MEMBER[member]
    return rule ?? this.of(fault.stage, fault.code)
  }

  /** The requirement a relation violation breaks: for a shared turn code, the rule of the event's kind. */
  ofViolation(violation: { code: string; eventType: string; replaces: boolean }): string | undefined {
    if (!SHARED_TURN_CODES.has(violation.code)) return this.of('relations', violation.code)
    // A replacement tool/result is turn-scoped (TURN-9), an append-origin one step-scoped (TURN-8), as is
    // every other event with no rule of its own, an assistant/message whatever its surfaceOp included.
    if (violation.eventType === 'tool/result') return violation.replaces ? 'TURN-9' : 'TURN-8'
    return TURN_RULE_OF_TYPE[violation.eventType] ?? 'TURN-8'
  }
}
