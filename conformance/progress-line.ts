/**
 * One line of progress on stderr when it is a terminal, redrawn in place at most ten times a second (a
 * run finishes a case every few milliseconds, and each redraw is a write to a terminal that may be at
 * the end of an ssh link), and cleared when the work ends, or when a signal ends the runner while
 * adapter processes live (adapter-process.ts), so that the shell's prompt does not land after it.
 */
const REDRAW_MS = 100

/** Whether a progress line is on the terminal now, whichever drew it. */
let lineDrawn = false

export interface ProgressLine {
  /** Draws `text` in place of the line; `last` draws it whatever the time since the previous one. */
  draw: (text: string, last: boolean) => void
  clear: () => void
}

export function progressLine(): ProgressLine {
  const tty = process.stderr.isTTY === true
  let drawnAt = -Infinity
  return {
    draw(text, last) {
      const now = Date.now()
      if (!tty || (!last && now - drawnAt < REDRAW_MS)) return
      drawnAt = now
      process.stderr.write(`\r\x1b[K${text}`)
      lineDrawn = true
    },
    clear: clearProgressLine,
  }
}

/** Clears the progress line, if one is drawn. */
export function clearProgressLine(): void {
  if (!lineDrawn) return
  lineDrawn = false
  process.stderr.write('\r\x1b[K')
}
