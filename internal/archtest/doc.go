// Package archtest has no code of its own: its test holds levlab's packages
// to the one direction of imports that docs/layout.md sets out, and cgo to
// the packages it names, in every build the Makefile makes.
package archtest
