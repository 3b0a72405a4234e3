// Package levtest holds what every implementation of package lev is checked
// against: the reference distance, generators of random inputs, and Run, the
// conformance suite that runs one algorithm through fixed answers, random
// pairs, metric properties, text and option sets.
//
// It is an ordinary package so that the tests of any backend can import it;
// lev itself never does.
package levtest
