package conformance

import (
	"fmt"
	"sync"
)

// Report is the outcome of a conformance run: every suite, in a fixed order.
type Report struct {
	// Corpus is the corpus folder the run read; empty when it ran only
	// what the module embeds.
	Corpus string   `json:"corpus,omitempty"`
	Suites []*Suite `json:"suites"`
	Cases  int      `json:"cases"`
	Passed int      `json:"passed"`
	Failed int      `json:"failed"`
}

// OK reports whether every case of every suite passed (and there were
// cases at all).
func (r *Report) OK() bool { return r.Failed == 0 && r.Cases > 0 && r.Passed == r.Cases }

// total adds up the suites.
func (r *Report) total() {
	r.Cases, r.Passed, r.Failed = 0, 0, 0
	for _, s := range r.Suites {
		r.Cases += s.Cases
		r.Passed += s.Passed
		r.Failed += s.Failed
	}
}

// Suite is the outcome of one suite.
type Suite struct {
	// Name is the suite's short name, as in the report's table.
	Name string `json:"name"`
	// Title says what the suite checks.
	Title string `json:"title"`
	// Unit is what one case is (a story, a file, an example...).
	Unit   string `json:"unit"`
	Cases  int    `json:"cases"`
	Passed int    `json:"passed"`
	Failed int    `json:"failed"`
	// Sections is the number of header blocks or field sections coded.
	Sections int `json:"sections"`
	// Bytes is the number of encoded bytes coded: header blocks, field
	// sections and encoder-stream data (QIFS record headers excluded).
	Bytes int64 `json:"bytes"`
	// Failures holds every failed case, with its first difference.
	Failures []Failure `json:"failures,omitempty"`
	// Notes say how the suite ran where that matters to the figures.
	Notes []string `json:"notes,omitempty"`
	// Compression compares our encoder with the corpus's implementations.
	Compression *Compression `json:"compression,omitempty"`

	mu sync.Mutex
}

// Failure is one failed case.
type Failure struct {
	// Case names the case: a file, a story, an example, with its setting.
	Case string `json:"case"`
	// Where names the place in the case: the seqno, the stream, the step.
	Where string `json:"where,omitempty"`
	// Error is the error or the first difference from what was expected.
	Error string `json:"error"`
}

func (f Failure) String() string {
	if f.Where == "" {
		return f.Case + ": " + f.Error
	}
	return f.Case + ": " + f.Where + ": " + f.Error
}

func newSuite(name, title, unit string) *Suite {
	return &Suite{Name: name, Title: title, Unit: unit}
}

// count records one case: it failed when err is not nil. Suites call it
// from several goroutines.
func (s *Suite) count(name string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Cases++
	if err == nil {
		s.Passed++
		return
	}
	s.Failed++
	f := Failure{Case: name, Error: err.Error()}
	if p, ok := err.(*placed); ok {
		f.Where, f.Error = p.where, p.err.Error()
	}
	s.Failures = append(s.Failures, f)
}

// recoverCase counts a case that panicked as failed. Deferred at the top
// of a case's work: a codec that panics fails its case, not the run.
func (s *Suite) recoverCase(name string) {
	if r := recover(); r != nil {
		s.count(name, fmt.Errorf("panic: %v", r))
	}
}

// safe calls f and turns a panic into an error.
func safe(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// add records sections coded and their encoded bytes.
func (s *Suite) add(sections int, bytes int64) {
	s.mu.Lock()
	s.Sections += sections
	s.Bytes += bytes
	s.mu.Unlock()
}

func (s *Suite) note(format string, args ...any) {
	s.mu.Lock()
	s.Notes = append(s.Notes, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

// placed is an error at a place inside a case (a seqno, a stream, a step),
// reported in Failure.Where.
type placed struct {
	where string
	err   error
}

func (p *placed) Error() string { return p.where + ": " + p.err.Error() }
func (p *placed) Unwrap() error { return p.err }

func at(where string, err error) error {
	if err == nil {
		return nil
	}
	return &placed{where, err}
}

func atf(where, format string, args ...any) error {
	return &placed{where, fmt.Errorf(format, args...)}
}

// Compression is a compression table: our encoder's total bytes beside
// every implementation's, on the same inputs at the same settings.
type Compression struct {
	// Raw defines the raw size the ratios divide by.
	Raw  string           `json:"raw"`
	Rows []CompressionRow `json:"rows"`
	// Notes say what the figures mean and where we stand.
	Notes []string `json:"notes,omitempty"`
}

// CompressionRow is one setting: the inputs, their raw size, and the total
// encoded bytes of each implementation (hqpack first).
type CompressionRow struct {
	// Setting names the settings and the inputs of the row.
	Setting string `json:"setting"`
	// Inputs is the number of stories or QIF files, Sections the number of
	// header blocks or field sections in them.
	Inputs   int   `json:"inputs"`
	Sections int   `json:"sections"`
	Raw      int64 `json:"raw"`
	// Impls are the encoders compared, hqpack first.
	Impls []ImplBytes `json:"impls"`
	// Smallest names the implementation with the fewest bytes among those
	// that qualify (see ImplBytes.Excluded), the first listed on a tie.
	Smallest string `json:"smallest"`
	// Tied names the other qualifying implementations with as few bytes.
	Tied []string `json:"tied,omitempty"`
}

// ImplBytes is one implementation's total on a row's inputs.
type ImplBytes struct {
	Name  string  `json:"name"`
	Bytes int64   `json:"bytes"`
	Ratio float64 `json:"ratio"`
	// Excluded marks output that breaks a rule of the setting (such as the
	// blocked-streams limit): shown, but not a candidate for smallest.
	Excluded bool   `json:"excluded,omitempty"`
	Note     string `json:"note,omitempty"`
}

// finish computes the ratios and the smallest implementation of the row.
func (r *CompressionRow) finish() {
	best := -1
	for i := range r.Impls {
		im := &r.Impls[i]
		if r.Raw > 0 {
			im.Ratio = float64(im.Bytes) / float64(r.Raw)
		}
		if !im.Excluded && (best < 0 || im.Bytes < r.Impls[best].Bytes) {
			best = i
		}
	}
	if best < 0 {
		return
	}
	r.Smallest = r.Impls[best].Name
	for i, im := range r.Impls {
		if i != best && !im.Excluded && im.Bytes == r.Impls[best].Bytes {
			r.Tied = append(r.Tied, im.Name)
		}
	}
}

// smallest names the smallest implementation, and says so on a tie.
func (r *CompressionRow) smallest() string {
	if len(r.Tied) > 0 {
		return fmt.Sprintf("%s (tie, %d)", r.Smallest, len(r.Tied)+1)
	}
	return r.Smallest
}

// ours returns hqpack's bytes and the best other qualifying
// implementation's (ok false when there is none).
func (r *CompressionRow) ours() (ours int64, best ImplBytes, ok bool) {
	for i, im := range r.Impls {
		if i == 0 {
			ours = im.Bytes
			continue
		}
		if !im.Excluded && (!ok || im.Bytes < best.Bytes) {
			best, ok = im, true
		}
	}
	return ours, best, ok
}
