package experiments

// Inputs returns the two inputs of a point of experiment e, made
// deterministically from the experiment, the point and its case.
func Inputs(e Experiment, p Point) (a, b []byte, err error) { return nil, nil, nil }
