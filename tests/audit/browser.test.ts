// The HTML audit page in a real browser: headless Chromium (Debian's chromium package, driven by
// playwright-core) opens the page for the corpus compaction-recovery log from a temp file with page
// scripts disabled, saves a screenshot under reports/, and reads the seven rows, their verdicts, the
// timeline and the budget chart from the DOM; then the page of a log of many replaces, whose long lists
// show their first entries and open on a click. Without /usr/bin/chromium the test is skipped and says
// why (.ci/run installs the package when it can); without the corpus it audits a hand-built log.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildAuditReport } from '../../conformance/audit/report.ts'
import { renderHtml } from '../../conformance/audit/render-html.ts'
import { estimateCounter, loadTokenCounter } from '../../conformance/audit/tokens.ts'
import { CHROMIUM, chromiumPresent, launchChromium } from './chromium.ts'
import { artifact, auditOf, compactedLog, corpusBytes, corpusLog, corpusPresent, projectRoot, replaceHeavyArtifact } from './logs.ts'

const ROW_TITLES = ['Raw-fact integrity', 'Surface legality', 'Constraint preservation', 'Request rebuild', 'Persistence', 'Failure recovery', 'Budget']
const screenshot = path.join(projectRoot, 'reports', 'audit-compaction-recovery.png')

const skipReason = chromiumPresent ? '' : ` (skipped: ${CHROMIUM} is missing; install Debian's chromium package, as .ci/run does)`
const subject = corpusPresent ? 'the corpus compaction-recovery log' : 'a hand-built compacted log (the corpus is absent)'

describe.skipIf(!chromiumPresent)(`the HTML audit page of ${subject} in headless Chromium${skipReason}`, () => {
  let browser: Browser
  let pageFile: string
  let longPageFile: string
  const externalRequests: string[] = []

  beforeAll(async () => {
    const report = corpusPresent
      ? buildAuditReport({ file: corpusLog, bytes: corpusBytes() }, await loadTokenCounter())
      : buildAuditReport({ file: 'compacted.jsonl', bytes: artifact(compactedLog()) }, estimateCounter('the corpus is absent'))
    pageFile = path.join(mkdtempSync(path.join(tmpdir(), 'dsh-audit-')), 'audit.html')
    writeFileSync(pageFile, renderHtml(report))
    longPageFile = path.join(path.dirname(pageFile), 'many-replaces.html')
    writeFileSync(longPageFile, renderHtml(auditOf(replaceHeavyArtifact(900))))
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    if (pageFile !== undefined) rmSync(path.dirname(pageFile), { recursive: true, force: true })
  })

  it('shows the seven rows with their verdicts, the timeline and the budget chart', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1200, height: 900 } })
    const page = await context.newPage()
    const pageUrl = pathToFileURL(pageFile).href
    page.on('request', request => {
      if (request.url() !== pageUrl) externalRequests.push(request.url())
    })
    await page.goto(pageUrl)
    mkdirSync(path.dirname(screenshot), { recursive: true })
    await page.screenshot({ path: screenshot, fullPage: true })

    expect(await page.title()).toMatch(/^Audit: /)
    expect(await page.locator('#verdicts tbody tr .row-title').allTextContents()).toEqual(ROW_TITLES)
    const verdicts = await page.locator('#verdicts tbody tr .verdict').allTextContents()
    expect(verdicts).toHaveLength(7)
    for (const verdict of verdicts) expect(['pass', 'fail', 'warn', 'human']).toContain(verdict.toLowerCase())
    expect(await page.locator('#row-constraint-preservation h2 .verdict').textContent()).toBe('human')
    expect(await page.locator('section.row .row-name').allTextContents()).toEqual(ROW_TITLES)

    const timeline = page.locator('svg#timeline')
    expect(await timeline.isVisible()).toBe(true)
    expect((await timeline.boundingBox())?.width).toBeGreaterThan(600)
    expect(await timeline.locator('rect.replacement').count()).toBe(1)
    expect(await timeline.locator('rect.shadowed').count()).toBeGreaterThan(0)
    expect(await timeline.locator('rect.surface-node').count()).toBeGreaterThan(0)
    expect(await timeline.locator('rect.bracket').count()).toBe(1)

    const budget = page.locator('#row-budget svg#budget-chart')
    expect(await budget.isVisible()).toBe(true)
    expect(await budget.locator('rect.budget-segment[data-part="tools"]').count()).toBe(2)
    expect(await budget.locator('rect.budget-segment[data-part="messages"]').count()).toBe(2)

    expect(await page.locator('#row-constraint-preservation .replacement-card pre').count()).toBeGreaterThan(1)
    expect(await page.locator('script').count()).toBe(0)
    expect(externalRequests).toEqual([])
    expect(statSync(screenshot).size).toBeGreaterThan(20_000)
    expect(await page.locator('details.more').count()).toBe(0)
    const timelineText = page.locator('details.timeline-text')
    expect(await timelineText.locator('li').first().isVisible()).toBe(false)
    await timelineText.locator('summary').click()
    expect(await timelineText.locator('li').allTextContents()).toEqual([
      expect.stringMatching(/^Turns: /), expect.stringMatching(/^Compaction brackets: 1 \(/), expect.stringMatching(/^Session end-seeds/),
      expect.stringMatching(/^Model calls that failed: /), expect.stringMatching(/^Current surface: \d+ nodes after 1 replace/),
    ])
    await context.close()
  }, 60_000)

  it('fits a phone\'s width, its wide parts scrolling in their own boxes, and prints the texts whole with the verdicts in colour', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, isMobile: true })
    const page = await context.newPage()
    await page.goto(pathToFileURL(pageFile).href)
    // The tests are compiled without the DOM's types: what runs in the page is given as text.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375)
    expect(await page.evaluate(`(box => box.scrollWidth > box.clientWidth)(document.querySelector('div.scroll:has(svg#timeline)'))`)).toBe(true)
    expect((await page.locator('svg#timeline').boundingBox())!.width).toBeGreaterThanOrEqual(760)

    await page.emulateMedia({ media: 'print' })
    const style = (selector: string, property: string) => page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).getPropertyValue(${JSON.stringify(property)})`)
    expect(await style('pre', 'max-height')).toBe('none')
    expect(await style('.verdict', 'print-color-adjust')).toBe('exact')
    await context.close()
  }, 60_000)

  it('shows the first 200 entries of a long list, and the rest when its summary is clicked', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1200, height: 900 } })
    const page = await context.newPage()
    await page.goto(pathToFileURL(longPageFile).href)
    const rows = page.locator('#timeline-section table.replacements tbody tr')
    expect(await rows.count()).toBe(450)
    expect(await rows.nth(199).isVisible()).toBe(true)
    expect(await rows.nth(200).isVisible()).toBe(false)
    const more = page.locator('#timeline-section details.more')
    expect(await more.locator('summary').textContent()).toBe('250 more replaces')
    await more.locator('summary').click()
    expect(await rows.nth(449).isVisible()).toBe(true)

    const cards = page.locator('#row-constraint-preservation .replacement-card')
    expect(await cards.count()).toBe(450)
    await cards.nth(199).scrollIntoViewIfNeeded()
    expect(await cards.nth(199).isVisible()).toBe(true)
    expect(await cards.nth(200).isVisible()).toBe(false)
    expect(await page.locator('details.more:not([open])').count()).toBe(3)
    await context.close()
  }, 60_000)
})
