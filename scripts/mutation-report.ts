// What the mutation scripts read from Stryker's JSON report (mutation-testing-report-schema), where
// `npm run mutation` writes it, and how they print a piece of it in a Markdown table cell.
import { fileURLToPath } from 'node:url'

/** The JSON report of the last `npm run mutation` (stryker.config.mjs). */
export const MUTATION_REPORT_PATH = fileURLToPath(new URL('../reports/mutation/mutation.json', import.meta.url))

/** How a directive line of reference/ starts: it silences the named mutators on the line after it. */
export const DIRECTIVE = '// Stryker disable next-line'

/** Whether a source line is a directive (the reference writes each on a line of its own). */
export function isDirectiveLine(text: string): boolean {
  return text.trimStart().startsWith(DIRECTIVE)
}

export type Status = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'Ignored' | 'CompileError' | 'RuntimeError' | 'Pending'

export interface Position {
  line: number
  column: number
}

export interface Mutant {
  mutatorName: string
  replacement?: string
  status: Status
  statusReason?: string
  location: { start: Position; end: Position }
}

export interface Report {
  /** Per file, as the report's schema has it: the file's text when mutated, and its mutants. */
  files: Record<string, { source: string; mutants: Mutant[] }>
  config: { concurrency: number }
}

export function isDetected(mutant: Mutant): boolean {
  return mutant.status === 'Killed' || mutant.status === 'Timeout'
}

/** One line of at most 80 characters, safe inside a Markdown table cell. */
export function oneLine(text: string | undefined): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim()
  return (flat.length > 80 ? `${flat.slice(0, 77)}...` : flat).replace(/\|/g, '\\|').replace(/`/g, "'")
}
