package match_test

import (
	"fmt"
	"log"

	"github.com/levlab/levlab/match"
)

// How many positions of a text each pattern matches within k edits, and
// each position as it is found. The README's matching snippet is this
// example's (readme_test.go in lev).
func ExampleCount() {
	text := []byte("TTACGTTGCATTTACGATGCAGG")
	counts, err := match.Count(text, [][]byte{[]byte("ACGTTGCA")}, 2,
		match.WithMode(match.Occurrence), match.WithWorkers(4))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(counts)
	err = match.Positions(text, []byte("ACGTTGCA"), 2, func(end int) error {
		fmt.Println(end) // where an occurrence within 2 edits ends
		return nil
	}, match.WithMode(match.Occurrence))
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// [8]
	// 7
	// 8
	// 9
	// 10
	// 11
	// 19
	// 20
	// 21
}
