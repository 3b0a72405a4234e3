package main

import (
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

// flagSet is a command's flags with its usage text.
type flagSet struct {
	*flag.FlagSet
	stdout io.Writer
	usage  func(w io.Writer, fs *flag.FlagSet)
	// later completes a flag's usage text just before the help is
	// printed, for a default that costs to find (the memory available):
	// a command that is not asked for help does not pay for it.
	later map[string]func() string
}

// newFlagSet returns a flag set that returns errors instead of printing
// them; usage prints the command's help, asked for with -h.
func newFlagSet(name string, stdout io.Writer, usage func(w io.Writer, fs *flag.FlagSet)) *flagSet {
	fs := flag.NewFlagSet("levlab "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // flag calls it on every error too; -h is handled in parse
	return &flagSet{FlagSet: fs, stdout: stdout, usage: usage}
}

// parse parses args, accepting flags before, between and after the
// positional arguments ("A B --json" as well as "--json A B"). After "--"
// everything is positional, for arguments that begin with '-'. It returns
// the positional arguments. On -h it prints the usage to stdout (it was
// asked for) and returns flag.ErrHelp.
func (fs *flagSet) parse(args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				for name, text := range fs.later {
					if f := fs.Lookup(name); f != nil {
						f.Usage += text()
					}
				}
				fs.SetOutput(fs.stdout)
				fs.usage(fs.stdout, fs.FlagSet)
				fs.SetOutput(io.Discard)
				return nil, err
			}
			return nil, fs.badValue(err)
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// badValue is the usage error of a parse error err. Where a flag's value
// would not parse, it names the flag and the value as the commands' own
// checks do and says what the flag takes: the flag package says only
// "invalid value "NaN" for flag -workers: parse error".
func (fs *flagSet) badValue(err error) error {
	msg := err.Error()
	rest, ok := strings.CutPrefix(msg, "invalid value ")
	if !ok {
		rest, ok = strings.CutPrefix(msg, "invalid boolean value ")
	}
	value, rest, found := strings.Cut(rest, " for ")
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, "flag "), "-")
	name, why, found2 := strings.Cut(rest, ": ")
	f := fs.Lookup(name)
	if !ok || !found || !found2 || f == nil {
		return usageErrorf("%s", msg)
	}
	getter, _ := f.Value.(flag.Getter)
	if getter == nil {
		return usageErrorf("%s", msg)
	}
	var want string
	switch getter.Get().(type) {
	case int, int64:
		want = "a whole number"
	case uint, uint64:
		want = "a whole number, 0 or more"
	case float64:
		want = "a number"
	case time.Duration:
		want = "a duration with its unit, such as 500ms, 10s or 2m"
	case bool:
		want = "true or false"
	default:
		return usageErrorf("%s", msg)
	}
	if why == "value out of range" {
		want = "out of range; want " + want
	} else {
		want = "want " + want
	}
	return usageErrorf("--%s %s: %s", name, value, want)
}

// given returns the names of the flags given on the command line.
func (fs *flagSet) given() map[string]bool {
	set := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// byteSize is a flag value: a whole number of bytes, optionally with a
// binary suffix (KiB, MiB, GiB, TiB).
type byteSize int64

var byteUnits = []struct {
	suffix string
	size   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"B", 1}}

func (s *byteSize) String() string { return strconv.FormatInt(int64(*s), 10) }

func (s *byteSize) Set(v string) error {
	num, unit := v, int64(1)
	for _, u := range byteUnits {
		if n, ok := strings.CutSuffix(v, u.suffix); ok {
			num, unit = n, u.size
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return errors.New("want a whole number of bytes, optionally with a suffix KiB, MiB, GiB or TiB")
	}
	if n > math.MaxInt64/unit || n < math.MinInt64/unit {
		return errors.New("out of range")
	}
	*s = byteSize(n * unit)
	return nil
}

// A taskShard is the Index-th of Count parts of a run (Index from 0): of
// matrix's pairs (matrixshard.Shard), or of run's points.
type taskShard struct{ Index, Count int }

// shardEnv are the variables a batch scheduler sets to a task's index, in
// the order they are read: Slurm job arrays', then Kubernetes Indexed
// Jobs'.
var shardEnv = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}

// parseShard reads --shard I/N, or --shards N with I from the scheduler's
// variable; neither is no shard (ok false).
func parseShard(spec string, count int, countGiven bool) (s taskShard, ok bool, err error) {
	switch {
	case spec != "" && countGiven:
		return taskShard{}, false, usageErrorf("--shard %s and --shards %d: give one of them", spec, count)
	case spec != "":
		i, n, found := strings.Cut(spec, "/")
		s.Index, err = strconv.Atoi(i)
		if err == nil {
			s.Count, err = strconv.Atoi(n)
		}
		if !found || err != nil {
			return taskShard{}, false, usageErrorf("--shard %q: want I/N, two whole numbers, such as 0/4", spec)
		}
	case countGiven:
		s.Count = count
		from := ""
		for _, name := range shardEnv {
			if v, set := os.LookupEnv(name); set {
				if s.Index, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
					return taskShard{}, false, usageErrorf("--shards %d: %s=%q is not a whole number", count, name, v)
				}
				from = name
				break
			}
		}
		if from == "" {
			return taskShard{}, false, usageErrorf("--shards %d: neither %s is set (a Slurm array task's, a Kubernetes indexed job's); give --shard I/N", count, strings.Join(shardEnv, " nor "))
		}
	default:
		return taskShard{}, false, nil
	}
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return taskShard{}, false, usageErrorf("shard %d/%d: want N of 1 or more shards and I from 0 to N-1", s.Index, s.Count)
	}
	return s, true, nil
}
