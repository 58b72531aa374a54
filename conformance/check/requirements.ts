// Which requirement a reported code breaks, for people reading a check report. The rule is kept
// simple on purpose: each stage of the pipeline names the chapters whose rules it applies (in the
// order PROC-2 lists them), and a code maps to the first requirement, in that chapter order and then
// in spec order, whose **Errors:** line names the code; a code no such chapter names falls back to
// the first requirement anywhere that names it. So a TURN_NOT_OPEN from relations is TURN-6 (the first
// rule of chapter 09 naming it), not REWR-5, and a negative zero in the header is META-5, not JSON-2.
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

export class RequirementIndex {
  private readonly requirements: readonly Requirement[]

  constructor(specDir = SPEC_DIR) {
    this.requirements = readSpecCatalog(specDir).requirements
  }

  /** The requirement ID for `code` raised at `stage`, or undefined for a code no requirement names. */
  of(stage: Stage, code: string): string | undefined {
    for (const chapter of CHAPTERS_OF_STAGE[stage]) {
      const found = this.requirements.find(requirement => requirement.chapter === chapter && requirement.errors.includes(code))
      if (found !== undefined) return found.id
    }
    return this.requirements.find(requirement => requirement.errors.includes(code))?.id
  }
}
