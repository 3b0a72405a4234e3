// Package archtest has no code of its own: its tests hold levlab's
// packages to the one direction of imports that docs/layout.md sets out,
// and cgo to the packages it names, in every build the Makefile makes; and
// the names one file holds as constants (the course reports' files, the
// cases, the report's section ids, a figure's axes) to that file.
package archtest
