// Package levtest holds what every implementation of package lev is checked
// against: the reference distance, generators of random inputs and their
// seeds, and RunImpl, the conformance suite.
//
// RunImpl runs one implementation, an Impl, through fixed answers, random
// pairs, metric properties, text, option sets, caps and a large pair: lev's
// algorithms (AlgorithmImpl), their many-pairs path (CrossImpl), Align
// (AlignImpl), or a model of one, each given as its entry points and what
// it can do. Each of the suite's sub-tests is written in the file of its
// name: fixed.go, random.go, properties.go, text.go, options.go, cap.go,
// large.go.
//
// The suite's inputs also come as data, for an implementation that takes
// no lev options (a peer, a binding, another program): Cases, run by
// RunCases, Check and levlab verify.
//
// It is an ordinary package so that the tests of any backend can import it;
// lev itself never does.
package levtest
