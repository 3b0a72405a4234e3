// Package archtest has no code of its own: its test holds levlab's packages
// to the one direction of imports that DESIGN.md's Layout sets out.
package archtest
