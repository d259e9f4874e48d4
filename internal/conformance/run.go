package conformance

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
)

// Options says what Run runs.
type Options struct {
	// Corpus is a folder laid out as the project's shared/corpus. Empty,
	// Run checks only what the module embeds: the RFC examples, its own
	// vectors and the hand-made malformed inputs.
	Corpus string
	// Parallel is the number of suites run at once; 0 means GOMAXPROCS.
	// Suites also spread their own cases over GOMAXPROCS goroutines.
	Parallel int
}

// Run runs the suites and returns the report. With a corpus: the RFC
// examples from the corpus, HPACK decode and encode, QPACK decode and
// encode, errors (the qifs error files and the hand-made inputs) and the
// module's vectors. Without one: the embedded RFC examples, the vectors and
// the hand-made inputs. The error is for a corpus that cannot be opened;
// failed cases are in the report.
func Run(opt Options) (*Report, error) {
	var c *Corpus
	if opt.Corpus != "" {
		var err error
		if c, err = OpenCorpus(opt.Corpus); err != nil {
			return nil, err
		}
	}
	rfc := func() *Suite {
		var ex *RFCExamples
		var err error
		name := "embedded rfc-examples.json"
		if c != nil {
			ex, err = c.RFCExamples()
			name = rfcJSONFile
		} else {
			ex, err = EmbeddedRFCExamples()
		}
		if err != nil {
			s := newSuite("rfc-examples", "RFC 7541 Appendix C and RFC 9204 Appendix B", "example x direction")
			s.count(name, err)
			return s
		}
		return RunRFCExamples(ex)
	}
	var vh, vq *Suite
	var vectors sync.Once
	runVectors := func() { vectors.Do(func() { vh, vq = RunVectors(Vectors()) }) }
	jobs := []func() *Suite{rfc}
	if c != nil {
		jobs = append(jobs,
			func() *Suite { return RunHPACKDecode(c) },
			func() *Suite { return RunHPACKEncode(c) },
			func() *Suite { return RunQPACKDecode(c) },
			func() *Suite { return RunQPACKEncode(c) },
		)
	}
	jobs = append(jobs,
		func() *Suite { return RunErrors(c) },
		func() *Suite { runVectors(); return vh },
		func() *Suite { runVectors(); return vq },
	)
	suites := make([]*Suite, len(jobs))
	workers := opt.Parallel
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// The slowest suites first, so that they do not start last.
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	if c != nil {
		slow := map[int]int{4: 0, 2: 1, 3: 2, 1: 3} // qpack-encode, hpack-encode, qpack-decode, hpack-decode
		slices.SortStableFunc(order, func(a, b int) int {
			ra, oka := slow[a]
			rb, okb := slow[b]
			if oka && okb {
				return cmp.Compare(ra, rb)
			}
			if oka != okb {
				if oka {
					return -1
				}
				return 1
			}
			return 0
		})
	}
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next == len(order) {
					mu.Unlock()
					return
				}
				i := order[next]
				next++
				mu.Unlock()
				suites[i] = jobs[i]()
			}
		}()
	}
	wg.Wait()
	r := &Report{Corpus: opt.Corpus, Suites: suites}
	for _, s := range suites {
		slices.SortStableFunc(s.Failures, func(a, b Failure) int { return cmp.Compare(a.Case, b.Case) })
	}
	r.total()
	return r, nil
}
