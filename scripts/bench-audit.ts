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
// Then, where Debian's chromium is installed, the HTML page of the replace-heavy log of 10M events in
// headless Chromium: the time from opening the file until the page is laid out (its height read), as
// audit writes the page (each list of more than 200 entries shows its first 200, the rest closed), and
// the same page with every such list open, which a browser lays out whole. One round each: the open
// page takes minutes at the default size.
//
// usage: tsx scripts/bench-audit.ts [M] [rounds]   (defaults: M = 20000, rounds = 3)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { CHROMIUM, chromiumPresent, launchChromium } from '../tests/audit/chromium.ts'
import { artifactLines, manyCallsLines, replaceHeavyLines, type Rates } from '../tests/check/log-generator.ts'
import { linearity, linearityLog, measure, runChild, type Measured } from './bench-support.ts'

const SCRIPT = fileURLToPath(import.meta.url)
const COMPACTION_HEAVY: Rates = { compaction: 0.5, staleBracket: 0.25, prune: 0.5 }
const SHAPES: Record<string, (size: number) => Iterable<string>> = {
  'generated': size => artifactLines('bench', size, 42),
  'compaction-heavy': size => artifactLines('bench', size, 42, COMPACTION_HEAVY),
  'replace-heavy': size => replaceHeavyLines(size),
  'many-calls': size => manyCallsLines(size),
}

/** The audit of `file` as HTML; with `kind` 'page', written to `file`.html too. */
async function child(kind: string, file: string): Promise<Measured> {
  const { buildAuditReport } = await import('../conformance/audit/report.ts')
  const { readLog } = await import('../conformance/audit/command.ts')
  const { renderHtml } = await import('../conformance/audit/render-html.ts')
  const { loadTokenCounter } = await import('../conformance/audit/tokens.ts')
  const counter = await loadTokenCounter('auto')
  return measure(() => {
    const report = buildAuditReport({ ...readLog(file), noLayout: true }, counter)
    const page = renderHtml(report)
    if (kind === 'page') writeFileSync(`${file}.html`, page)
    return `${report.log.events ?? 0} events, overall ${report.overall}, ${(page.length / 1e6).toFixed(1)} MB of HTML`
  })
}

/** Milliseconds from opening `file` in `browser` until its layout gives the page's height. */
async function openingTime(browser: Browser, file: string): Promise<number> {
  const page = await browser.newPage()
  const start = performance.now()
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 0 })
  await page.evaluate('document.body.scrollHeight')
  const elapsed = performance.now() - start
  await page.close()
  return elapsed
}

/** The replace-heavy page as audit writes it against the same page with every long list open. */
async function pageOpening(log: string): Promise<string> {
  if (!chromiumPresent) return `  the HTML page in a browser: not measured, ${CHROMIUM} is missing`
  runChild(SCRIPT, 'page', log)
  const written = `${log}.html`
  const opened = `${log}.open.html`
  writeFileSync(opened, readFileSync(written, 'utf8').replaceAll('<details class="more">', '<details class="more" open>'))
  const browser = await launchChromium()
  try {
    const [asWritten, allOpen] = [await openingTime(browser, written), await openingTime(browser, opened)]
    console.log(`\nthe HTML page of ${path.basename(log)} in headless Chromium, opened until laid out (one round each):`)
    console.log(`  as audit writes it (long lists closed past 200 entries)  ${(asWritten / 1000).toFixed(1)} s`)
    console.log(`  with every long list open                                ${(allOpen / 1000).toFixed(1)} s`)
    return `  the HTML page, every list open / as written:   ${(allOpen / asWritten).toFixed(2)} (wall)`
  } finally {
    await browser.close()
  }
}

async function main(args: string[]): Promise<void> {
  if (args[0] === '--child') {
    console.log(JSON.stringify(await child(args[1] as string, args[2] as string)))
    return
  }
  const [size = 20_000, rounds = 3] = args.map(Number)
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-audit-'))
  try {
    console.log(`audit of logs of ${size} and ${10 * size} events; best of ${rounds} rounds, each job in a child process\n`)
    const results = linearity(SCRIPT, 'audit', dir, SHAPES, size, rounds)
    results.push(await pageOpening(linearityLog(dir, 'replace-heavy', 10)))
    console.log('\nratios (wall; cpu in parentheses)')
    for (const result of results) console.log(result)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main(process.argv.slice(2))
