// Package report renders levlab's results — our measured records, every
// machine's, beside the numbers the course reports published — as one
// self-contained HTML file (charts drawn by ECharts, inlined, nothing
// fetched), as A4 PDF printed from it by headless Chromium, as Markdown, or
// as a LaTeX fragment, the last two linking the figures it draws as SVG and
// PNG files; Sections gives it section by section.
//
// It reads only CSV through package records, streaming: a run of millions
// of records is tallied, never held. It is three rooms: the runs read
// (report/internal/runs: chosen, tallied, aggregated, no word of text),
// the write-up here (its sections, phrased from the runs), and the
// document it builds and renders (report/internal/document). The same CSV and the same levlab
// give the same bytes: every list is sorted, chart ids are fixed, and
// nothing of the moment of generation (clock, map order, random ids)
// reaches the output; the byline under the title names levlab's commit and
// the records' dates.
package report
