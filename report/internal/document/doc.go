// Package document is the report as a document, knowing nothing of
// records or runs: its model (Doc, Section, Para, Table, Drawing and
// Figure, the one chart type, which package report hands out as is) and
// its renderers — HTML with charts drawn by ECharts (chart.js, report.css
// and the ECharts library embedded), Markdown, LaTeX, the figures as SVG
// and PNG files and the PDF printed by headless Chromium — with the
// number formatting both it and the report's text use.
package document
