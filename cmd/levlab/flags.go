package main

import (
	"os"
	"strconv"
	"strings"
)

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
