package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Corpus reads a corpus folder laid out as the project's shared/corpus
// (hpack-test-case/, qifs/, rfc-examples.json; see its README.md). Each
// file is read and parsed once, whichever suite asks first; a Corpus is
// safe for concurrent use.
type Corpus struct {
	Dir string

	mu      sync.Mutex
	stories map[string]*lazy[[]StoryFile]
	qifs    map[string]*lazy[[]Headers]
	rfc     lazy[*RFCExamples]
}

// lazy is a value loaded once.
type lazy[T any] struct {
	once sync.Once
	v    T
	err  error
}

func (l *lazy[T]) get(load func() (T, error)) (T, error) {
	l.once.Do(func() { l.v, l.err = load() })
	return l.v, l.err
}

// Corpus paths, relative to its folder.
const (
	hpackDir    = "hpack-test-case"
	rawDataDir  = "hpack-test-case/raw-data"
	qifDir      = "qifs/qifs"
	qpack05Dir  = "qifs/encoded/qpack-05"
	qifsErrDir  = "qifs/encoded/errors"
	rfcJSONFile = "rfc-examples.json"
)

// OpenCorpus checks that dir holds a corpus and returns it.
func OpenCorpus(dir string) (*Corpus, error) {
	for _, p := range []string{rawDataDir, qifDir, qpack05Dir, qifsErrDir, rfcJSONFile} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			return nil, fmt.Errorf("%s is not a corpus folder: %w", dir, err)
		}
	}
	return &Corpus{Dir: dir}, nil
}

// path returns the path of a corpus file, relative to the corpus folder.
func (c *Corpus) path(rel ...string) string {
	return filepath.Join(append([]string{c.Dir}, rel...)...)
}

// HPACKFolders returns the names of the encoder folders of hpack-test-case
// (every folder but raw-data), sorted.
func (c *Corpus) HPACKFolders() ([]string, error) {
	ents, err := os.ReadDir(c.path(hpackDir))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && e.Name() != "raw-data" {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// StoryFile is one story of a folder. Err is set, and Story nil, when the
// file could not be read or parsed.
type StoryFile struct {
	Name  string
	Story *Story
	Err   error
}

// Stories returns the stories (story_*.json) of an hpack-test-case folder,
// in name order; "raw-data" is the input folder.
func (c *Corpus) Stories(folder string) ([]StoryFile, error) {
	c.mu.Lock()
	if c.stories == nil {
		c.stories = map[string]*lazy[[]StoryFile]{}
	}
	l := c.stories[folder]
	if l == nil {
		l = new(lazy[[]StoryFile])
		c.stories[folder] = l
	}
	c.mu.Unlock()
	return l.get(func() ([]StoryFile, error) {
		dir := c.path(hpackDir, folder)
		names, err := filepath.Glob(filepath.Join(dir, "story_*.json"))
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: no story_*.json files", dir)
		}
		slices.Sort(names)
		out := make([]StoryFile, len(names))
		parallel(len(names), func(i int) {
			s, err := LoadStory(names[i])
			out[i] = StoryFile{Name: filepath.Base(names[i]), Story: s, Err: err}
		})
		return out, nil
	})
}

// QIFNames returns the names of the QIF files (without .qif), sorted.
func (c *Corpus) QIFNames() ([]string, error) {
	names, err := filepath.Glob(c.path(qifDir, "*.qif"))
	if err != nil {
		return nil, err
	}
	for i, n := range names {
		names[i] = strings.TrimSuffix(filepath.Base(n), ".qif")
	}
	slices.Sort(names)
	return names, nil
}

// QIF returns the header lists of qifs/qifs/<name>.qif.
func (c *Corpus) QIF(name string) ([]Headers, error) {
	c.mu.Lock()
	if c.qifs == nil {
		c.qifs = map[string]*lazy[[]Headers]{}
	}
	l := c.qifs[name]
	if l == nil {
		l = new(lazy[[]Headers])
		c.qifs[name] = l
	}
	c.mu.Unlock()
	return l.get(func() ([]Headers, error) { return LoadQIF(c.path(qifDir, name+".qif")) })
}

// RFCExamples returns the corpus's rfc-examples.json.
func (c *Corpus) RFCExamples() (*RFCExamples, error) {
	return c.rfc.get(func() (*RFCExamples, error) { return LoadRFCExamples(c.path(rfcJSONFile)) })
}

// parallel calls f(0) ... f(n-1) on up to GOMAXPROCS goroutines and waits.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				j := i
				i++
				next.Unlock()
				if j >= n {
					return
				}
				f(j)
			}
		}()
	}
	wg.Wait()
}
