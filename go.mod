module github.com/levlab/levlab

go 1.26
