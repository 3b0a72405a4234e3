module github.com/levlab/levlab

go 1.26

require (
	github.com/agnivade/levenshtein v1.2.2
	github.com/go-echarts/go-echarts/v2 v2.6.7
	github.com/gocarina/gocsv v0.0.0-20240520201108-78e41c74b4b1
	github.com/ka-weihe/fast-levenshtein v0.0.0-20201227151214-4c99ee36a1ba
	github.com/schollz/progressbar/v3 v3.18.0
	golang.org/x/sys v0.38.0
	golang.org/x/term v0.37.0
)

require (
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/sbromberger/gompi v0.2.0 // indirect
)
