module github.com/levlab/levlab

go 1.26

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/ka-weihe/fast-levenshtein v0.0.0-20201227151214-4c99ee36a1ba // indirect
	golang.org/x/sys v0.38.0 // indirect
)
