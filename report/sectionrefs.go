package report

import (
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"

	"github.com/levlab/levlab/records"
)

// term is a word of the report's jargon and what it means; ref, a tool or
// paper the report names and where to find it. Each is shown only where
// the report's text holds one of its keys, so the list says no more than
// the report does.
type term struct {
	keys       []string
	name, text string
}

var terms = []term{
	{[]string{matrixRate}, matrixRate, "the whole matrix's m×n cells over the time, 10⁹ a second, computed or skipped (Rates, under Key results)"},
	{[]string{"computed GCUPS"}, "computed GCUPS", "giga cell updates a second: the cells the algorithm computed, 10⁹ a second (Rates, under Key results)"},
	{[]string{"Gbp/s"}, "Gbp/s", "giga base pairs a second: the text's symbols times the patterns, 10⁹ a second"},
	{[]string{"paper scale"}, "paper scale", "the reports' own sizes, and strings to 10⁶ beyond them (Key results)"},
	{[]string{"strips"}, "strip", "in Myers' bit-vector kernel, 64 rows of the matrix held as one machine word a column; a vector register steps several strips at once"},
	{[]string{"lanes"}, "lane", "one element of a vector register (AVX2: 256 bits, AVX-512: 512) or one thread of a GPU warp"},
	{[]string{"first40"}, "first40", "edlib in the many-pairs benchmark: the first 40 strings against all, to keep its run short"},
	{[]string{"shadow bytes"}, "shadow bytes", "the bytes past a part of the text that its last windows reach into, copied with the part so that a match across the cut is counted once"},
	{[]string{"Hyyrö"}, "Myers/Hyyrö", "Myers' bit-vector algorithm in Hyyrö's form for two whole strings: a column as bit-vectors of +1 and −1 steps, a word at a time"},
	{[]string{"myers-parallel", "tworow", "fullmatrix"}, "levlab's algorithms", "fullmatrix: Wagner–Fischer; tworow: its two rows; diagonal: antidiagonals, a barrier each; tiled, tiled-barrier: a wavefront of tiles (as tasks; on long-lived workers); myers: Myers/Hyyrö in a band; myers-parallel: its strips over the workers; auto: the fastest for the sizes; apm-fast: matching with a q-gram filter; cuda-diagonal, cuda-matrix, cuda-fast: a launch per antidiagonal, the whole matrix, one bit-parallel launch"},
	{[]string{" band", "banded", "Ukkonen band"}, "band, Ukkonen band", "the diagonals within d of the main one: a path of cost d never leaves them, so a distance bounded by d needs only their cells (Ukkonen 1985)"},
	{[]string{"CIGAR"}, "CIGAR", "an alignment as runs of operations: = a match, X a substitution, I a symbol of A only, D a symbol of B only (B the reference, as in SAM)"},
	{[]string{"warp"}, "warp", "32 GPU threads that execute together; shuffles pass values between them"},
	{[]string{"Karp–Flatt"}, "S, E, e, f", "speedup S = T1/Tp over one worker; efficiency E = S/p; Karp–Flatt's e = (1/S − 1/p)/(1 − 1/p), the serial share S implies; f, the serial fraction Amdahl's law fits"},
	{[]string{"share the machine's"}, "oversubscribed", "more workers than cores, taking turns on them; Amdahl's law, a processor each, does not apply"},
	{[]string{"trimmed pass"}, "trimmed pass", "levlab's exact Myers pass over only the cells a path of a first, banded pass's cost can reach; the matrix rate still counts the rest"},
	{[]string{"n.s.", "not significant"}, "n.s., not significant", "the Mann–Whitney U test does not reject the hypothesis of no difference at α = 0.05, or the 95% interval of the ratio holds 1×"},
	{[]string{" cores", " core "}, "core", "a logical CPU as the operating system counts it (Go's runtime.NumCPU); on a VM a virtual CPU"},
	{[]string{"s000-", "s001-"}, "s000-fig3, gpu-fast, …", "levlab's experiments: sNNN- redoes a table or figure of report NNN, the others go beyond the reports (docs/experiments.md)"},
	{[]string{"window mode"}, "window mode", "report 003's count: the positions j where the window of the pattern's length at j is within k edits of it"},
	{[]string{"occurrence mode"}, "occurrence mode", "as in Sellers 1980: the positions j where some substring ending at j is within k edits of the pattern"},
	{[]string{"infix mode"}, "edlib's infix mode", "edlib's search of a pattern in a text (EDLIB_MODE_HW): its best ends, not every end within k"},
	{[]string{"time_regexp"}, "time_regexp", "an own experiment's spec key: a regular expression reading the time a program prints, used in place of its wall time"},
	{[]string{"compute-s"}, "compute-s", "a command's seconds of computing as it reports them, start and input reading left out"},
	{[]string{"SMT"}, "SMT", "simultaneous multithreading: two logical cores sharing one physical core; no SMT: one to one"},
	{[]string{" MB", " MiB", " KiB", " GiB"}, "MB, MiB", "MB: 10⁶ bytes (go test's MB/s, text sizes); KiB, MiB, GiB: 2¹⁰, 2²⁰, 2³⁰ bytes (every memory measured)"},
	{[]string{"lev.", "match.Count"}, "lev.Cross, lev.All …", "levlab's Go API: Distance one pair, Cross one set against another, All every pair of a set, Align an alignment; match.Count patterns in a text"},
	{[]string{" bp"}, "bp, n, m", "base pairs, DNA's symbols; n, m: the two lengths (len_a, len_b)"},
	{[]string{"runes"}, "rune", "a Unicode code point, Go's unit of text; a UTF-8 string of n runes may take more than n bytes"},
	{[]string{"persistent launch"}, "persistent launch", "one kernel launch whose blocks stay on the GPU and loop over the work, in place of a launch a step"},
	{[]string{"progress counters"}, "progress counter", "a count in GPU memory of the column chunks a band of rows has finished; the band below waits on it before it reads them"},
	{[]string{"NVRTC"}, "NVRTC", "NVIDIA's run-time compiler: the kernels' CUDA source compiled when a program first uses the GPU, so no CUDA toolkit is needed to build"},
	{[]string{"--keep-going"}, "--keep-going", "levlab run's flag to time a program's larger sizes after a wrong answer at a smaller one"},
	{[]string{"max 1", "--max"}, "max k", "a bound on the distance (lev.WithMax, levlab's --max): each pair stops once its distance is sure to exceed k and answers k+1"},
	{[]string{" rank", "mpirun"}, "rank, mpirun -np", "an MPI process; mpirun -np p starts p (Open MPI)"},
	{[]string{" shard"}, "shard", "one of N parts of levlab matrix's pairs (--shard I/N), run apart, joined by levlab merge"},
	{[]string{"Turin-like"}, "Turin-like", "the hypervisor's name for the AMD EPYC's CPU"},
	{[]string{"q-gram filter"}, "q-gram filter", "apm-fast skips a window of the text unless enough of the pattern's substrings of length q occur in it; on random text that is nearly every window"},
}

var refs = []term{
	{[]string{records.Seed000, "Report 000"}, "Report 000", "C. Ceccherelli, PC-2022/23 final: Parallel edit distance, course report (2023, our reading of its course year); file " + records.Seed000},
	{[]string{records.Seed001, "Report 001"}, "Report 001", "N. Carkaxhija, Levenshtein distance: parallel implementation in OpenMP and C++ threads, University of Florence (year not stated); file " + records.Seed001},
	{[]string{records.Seed002, "Report 002"}, "Report 002", "Z. Yang, Accelerating Levenshtein Edit Distance Using GPUs, Rochester Institute of Technology, slides, 04/26/2018; file " + records.Seed002},
	{[]string{records.Seed003, "Report 003"}, "Report 003", "R. Benbaki and A. Mammadov, INF560 Project: Approximate Pattern Matching, January–March 2021; file " + records.Seed003},
	{[]string{records.Seed004, "Report 004"}, "Report 004", "A GPU Exercise - part 2, a blog post, 2012 (author not stated): the edit distance in two rows of the matrix; file " + records.Seed004},
	{[]string{"edlib"}, "edlib", "M. Šošić and M. Šikić, Edlib: a C/C++ library for fast, exact sequence alignment using edit (Levenshtein) distance, Bioinformatics 33(9), 2017, doi:10.1093/bioinformatics/btw753; edlib-aligner is its command-line program"},
	{[]string{"as in SAM"}, "SAM", "H. Li et al., The Sequence Alignment/Map format and SAMtools, Bioinformatics 25(16), 2009 (samtools.github.io/hts-specs)"},
	{[]string{"wamerican"}, "wamerican", "Debian's American English word list (/usr/share/dict/american-english), from SCOWL"},
	{[]string{"go1."}, "Go", "the Go language and toolchain (go.dev), at Method's version; levlab's workers are goroutines"},
	{[]string{"Myers"}, "Myers 1999", "G. Myers, A fast bit-vector algorithm for approximate string matching based on dynamic programming, Journal of the ACM 46(3), 1999"},
	{[]string{"Sellers"}, "Sellers 1980", "P. H. Sellers, The theory and computation of evolutionary distances: pattern recognition, Journal of Algorithms 1(4), 1980"},
	{[]string{"Hyyrö"}, "Hyyrö 2003", "H. Hyyrö, A bit-vector algorithm for computing Levenshtein and Damerau edit distances, Nordic Journal of Computing 10(1), 2003"},
	{[]string{"Ukkonen"}, "Ukkonen 1985", "E. Ukkonen, Algorithms for approximate string matching, Information and Control 64, 1985"},
	{[]string{"Hirschberg"}, "Hirschberg 1975", "D. S. Hirschberg, A linear space algorithm for computing maximal common subsequences, Communications of the ACM 18(6), 1975"},
	{[]string{"A*PA2"}, "A*PA2", "R. Groot Koerkamp, A*PA2: up to 19× faster exact global alignment, WABI 2024 (LIPIcs 312), 2024"},
	{[]string{"Sassy"}, "Sassy2", "R. Beeloo and R. Groot Koerkamp, Sassy2: batch searching of short DNA patterns, bioRxiv, 2026, doi:10.64898/2026.03.10.710811; its published rate is quoted, not measured here"},
	{[]string{"StringZilla"}, "StringZilla", "A. Vardanian, StringZilla 4, github.com/ashvardanian/StringZilla, 2025; its published H100 rate is quoted, not measured here"},
	{[]string{"agnivade"}, "agnivade", "github.com/agnivade/levenshtein, a Go library: the textbook DP in one row, over runes"},
	{[]string{"ka-weihe"}, "ka-weihe", "github.com/ka-weihe/fast-levenshtein, a Go library: Myers' bit-vector algorithm for strings"},
	{[]string{"Jurafsky"}, "Jurafsky and Martin", "D. Jurafsky and J. H. Martin, Speech and Language Processing, whose edit distance example is intention → execution"},
	{[]string{"Wagner–Fischer"}, "Wagner and Fischer 1974", "R. A. Wagner and M. J. Fischer, The string-to-string correction problem, Journal of the ACM 21(1), 1974"},
	{[]string{"Amdahl"}, "Amdahl 1967", "G. M. Amdahl, Validity of the single processor approach to achieving large scale computing capabilities, AFIPS Spring Joint Computer Conference, 1967"},
	{[]string{"Karp–Flatt"}, "Karp and Flatt 1990", "A. H. Karp and H. P. Flatt, Measuring parallel processor performance, Communications of the ACM 33(5), 1990"},
	{[]string{"OpenMP"}, "OpenMP", "the OpenMP Application Programming Interface, OpenMP Architecture Review Board (openmp.org): the reports' threads"},
	{[]string{"CUDA"}, "CUDA", "NVIDIA's CUDA C++ and driver API (docs.nvidia.com/cuda)"},
	{[]string{"PyCUDA"}, "PyCUDA", "A. Klöckner et al., PyCUDA and PyOpenCL: a scripting-based approach to GPU run-time code generation, Parallel Computing 38(3), 2012"},
	{[]string{"mpirun"}, "Open MPI", "the MPI behind mpirun here (Debian's openmpi-bin), open-mpi.org"},
	{[]string{"Mann–Whitney"}, "Mann–Whitney U", "H. B. Mann and D. R. Whitney, On a test of whether one of two random variables is stochastically larger than the other, Annals of Mathematical Statistics 18(1), 1947; by golang.org/x/perf/benchmath"},
}

// sectionRefs returns the last section: the terms the report uses, and the
// tools and papers it names, each only where the rest of d names it.
func sectionRefs(d *document.Doc) document.Section {
	s := document.Section{ID: document.RefsID, Title: "Terms and references"}
	shown, text := docText(d, false), docText(d, true)
	in := func(text string, t term) bool {
		for _, k := range t.keys {
			if strings.Contains(text, k) {
				return true
			}
		}
		return false
	}
	named := func(t term) bool { return in(text, t) }
	// A term only what paper leaves out names (a folded table, a screen
	// section) is defined in a folded table of its own, so that paper
	// keeps its room.
	tt := &document.Table{Caption: "Terms", Head: []string{"term", "what it means here"}, Prose: true}
	tf := &document.Table{Caption: "Terms of what is not in print (folded tables, the benchmarks' details)", Head: tt.Head, Prose: true, Folded: true}
	for _, t := range terms {
		switch {
		case in(shown, t):
			tt.Rows = append(tt.Rows, []string{t.name, t.text})
		case named(t):
			tf.Rows = append(tf.Rows, []string{t.name, t.text})
		}
	}
	// A reference a shown term names (SAM, in CIGAR's) is named too.
	for _, row := range slices.Concat(tt.Rows, tf.Rows) {
		text += "\n" + row[1]
	}
	tr := &document.Table{Caption: "References: the reports, tools and papers named above", Head: []string{"name", "reference"}, Prose: true}
	for _, t := range refs {
		if named(t) {
			tr.Rows = append(tr.Rows, []string{t.name, t.text})
		}
	}
	if len(tt.Rows) > 0 {
		s.Add(tt)
	}
	if len(tf.Rows) > 0 {
		s.Add(tf)
	}
	if len(tr.Rows) > 0 {
		s.Add(tr)
	}
	return s
}

// docText returns every word d shows, one string, for sectionRefs to
// search: with all, what paper leaves out too (folded tables, screen
// sections and drawings, which HTML, Markdown and TeX show).
func docText(d *document.Doc, all bool) string {
	var b strings.Builder
	w := func(ss ...string) {
		for _, s := range ss {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	for _, s := range d.Sections {
		if s.Screen && !all {
			continue // paper leaves it out whole, its heading too
		}
		w(s.Title, s.Source)
		for _, blk := range s.Blocks {
			switch blk := blk.(type) {
			case document.Para:
				w(string(blk))
			case *document.Table:
				if blk.Folded && !all {
					continue
				}
				w(blk.Caption)
				w(blk.Head...)
				for _, row := range blk.Rows {
					w(row...)
				}
			case *document.Drawing:
				if blk.Screen && !all {
					continue
				}
				w(blk.Caption)
			case *document.Figure:
				w(blk.Title, blk.XName, blk.YName)
				for _, sr := range blk.Series {
					w(sr.Name)
				}
				w(blk.Notes...)
			}
		}
	}
	return b.String()
}
