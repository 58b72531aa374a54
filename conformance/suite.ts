// Runs many cases against one adapter and summarizes the outcomes by chapter, for people and CI.
import type { Adapter } from './adapter.ts'
import { runCase, type CaseOutcome, type CaseStatus } from './run-case.ts'
import type { VectorCase } from './vector-cases.ts'

export async function runSuite(
  adapter: Adapter,
  cases: readonly VectorCase[],
  progress?: (done: number, total: number) => void,
): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = []
  for (const vector of cases) {
    outcomes.push(await runCase(adapter, vector))
    progress?.(outcomes.length, cases.length)
  }
  return outcomes
}

type Counts = Record<CaseStatus, number>

function emptyCounts(): Counts {
  return { pass: 0, fail: 0, skip: 0, error: 0 }
}

function countLine(label: string, counts: Counts): string {
  return `${label.padEnd(28)} ${String(counts.pass).padStart(4)} passed ${String(counts.fail).padStart(4)} failed ${String(counts.error).padStart(4)} errors ${String(counts.skip).padStart(4)} skipped`
}

/** The summary text and whether the run failed: any fail or error fails it; skips never pass. */
export function summarize(adapter: Adapter, cases: readonly VectorCase[], outcomes: readonly CaseOutcome[]): { text: string; failed: boolean } {
  const chapterOf = new Map(cases.map((vector) => [vector.id, vector.chapter]))
  const total = emptyCounts()
  const byChapter = new Map<string, Counts>()
  for (const outcome of outcomes) {
    const chapter = chapterOf.get(outcome.id) ?? '?'
    const counts = byChapter.get(chapter) ?? emptyCounts()
    counts[outcome.status] += 1
    total[outcome.status] += 1
    byChapter.set(chapter, counts)
  }
  const problems = outcomes
    .filter((outcome) => outcome.status === 'fail' || outcome.status === 'error')
    .map((outcome) => `  ${outcome.status.toUpperCase()} ${outcome.id}: ${outcome.reason ?? ''}`)
  const lines = [
    `${adapter.meta.name} ${adapter.meta.version} (${adapter.meta.language}; profiles: ${adapter.meta.profiles.join(', ')})`,
    ...[...byChapter.keys()].sort().map((chapter) => countLine(`  ${chapter}`, byChapter.get(chapter)!)),
    countLine('  total', total),
    ...problems,
    `${total.pass} passed, ${total.fail + total.error} failed, ${total.skip} skipped`,
  ]
  return { text: lines.join('\n'), failed: total.fail + total.error > 0 }
}
