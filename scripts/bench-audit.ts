// Benchmarks `dsh-conformance audit` (conformance/audit) for linearity: the time to audit a log of M
// events against the time to audit one of 10M events of the same shape (target: 10x the size costs
// <= 12x the time, as for check's replace-heavy log), for three shapes:
//
// 1. generated: the composition of tests/check/log-generator.ts at upstream's rates (check's bench log);
// 2. compaction-heavy: the same with a compaction bracket before half the turns, a stale bracket (no
//    end, then an end-seed) before a quarter and a prune in half: many brackets, each holding replaces;
// 3. replace-heavy: check's adversarial log (a surface of M/2 nodes, then M/2 replaces of one or two
//    nodes anywhere in it), where every replace is judged on the surface just before it (REGION-5);
// 4. many-calls: check's other adversarial log, one step whose M/2 tool calls are all pending at once.
//
// The generator draws each compaction's region at random, not always at balanced cuts, so the audit
// fails some of its replaces (REGION-5) and the orphaned results they leave: check passes the logs,
// which load, and the bench measures the time either way.
//
// Each audit reads the file, builds the report and renders it as HTML (the format with the timeline and
// the chart), the tokenizer loaded before the clock starts; the log is read as a lone artifact
// (--no-layout), since the bench's files sit outside any storage layout. audit holds the whole log and
// its report in memory, unlike check: peak RSS is printed, with no target.
//
// usage: tsx scripts/bench-audit.ts [M] [runs]     (defaults: M = 20000, runs = 3)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { artifactLines, manyCallsLines, replaceHeavyLines, type Rates } from '../tests/check/log-generator.ts'
import { linearity, measure, type Measured } from './bench-support.ts'

const SCRIPT = fileURLToPath(import.meta.url)
const COMPACTION_HEAVY: Rates = { compaction: 0.5, staleBracket: 0.25, prune: 0.5 }
const SHAPES: Record<string, (size: number) => Iterable<string>> = {
  'generated': size => artifactLines('bench', size, 42),
  'compaction-heavy': size => artifactLines('bench', size, 42, COMPACTION_HEAVY),
  'replace-heavy': size => replaceHeavyLines(size),
  'many-calls': size => manyCallsLines(size),
}

async function child(file: string): Promise<Measured> {
  const { buildAuditReport } = await import('../conformance/audit/report.ts')
  const { readLog } = await import('../conformance/audit/command.ts')
  const { renderHtml } = await import('../conformance/audit/render-html.ts')
  const { loadTokenCounter } = await import('../conformance/audit/tokens.ts')
  const counter = await loadTokenCounter('auto')
  return measure(() => {
    const report = buildAuditReport({ ...readLog(file), noLayout: true }, counter)
    const page = renderHtml(report)
    return `${report.log.events ?? 0} events, overall ${report.overall}, ${(page.length / 1e6).toFixed(1)} MB of HTML`
  })
}

async function main(args: string[]): Promise<void> {
  if (args[0] === '--child') {
    console.log(JSON.stringify(await child(args[2] as string)))
    return
  }
  const [size = 20_000, runs = 3] = args.map(Number)
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-audit-'))
  try {
    console.log(`audit of logs of ${size} and ${10 * size} events; best of ${runs} runs, each in a child process\n`)
    const results = linearity(SCRIPT, 'audit', dir, SHAPES, size, runs)
    console.log('\nratios (wall; cpu in parentheses)')
    for (const result of results) console.log(result)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main(process.argv.slice(2))
