module github.com/levlab/levlab

go 1.26

require (
	github.com/agnivade/levenshtein v1.2.2
	github.com/ka-weihe/fast-levenshtein v0.0.0-20201227151214-4c99ee36a1ba
	golang.org/x/sys v0.38.0
)
