package lev_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/levlab/levlab/lev"
)

// The distance between two byte strings, and between two texts counted in
// runes. The README's first snippet is this example's (readme_test.go).
func ExampleDistance() {
	d, err := lev.Distance([]byte("kitten"), []byte("sitting"),
		lev.WithAlgorithm(lev.MyersParallel), lev.WithWorkers(2)) // 3
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d)
	d, err = lev.DistanceString("héllo", "hello") // counts runes: 1
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d)
	// Output:
	// 3
	// 1
}

// Spelling suggestions: each typo's nearest words within two edits, the
// nearest first.
func ExampleCrossStrings() {
	dictionary := "address\nadroit\nbelieve\ndress\nreceive\nrecipe\nrelieve"
	var err error
	words := strings.Split(dictionary, "\n")
	err = lev.CrossStrings([]string{"recieve", "adress"}, words, func(p lev.Pair) error {
		fmt.Println(words[p.J], p.Distance) // relieve 1, … address 1, …
		return nil
	}, lev.WithMax(2), lev.WithTop(5))
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// relieve 1
	// believe 2
	// receive 2
	// recipe 2
	// address 1
	// dress 1
}

// Which edits: an optimal alignment, as an extended CIGAR (= a match, X a
// substitution, I a symbol of the first string only, D of the second).
func ExampleAlign() {
	al, err := lev.Align([]byte("kitten"), []byte("sitting"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(al.Distance, al.CIGAR())
	// Output: 3 1X3=1X1=1D
}
